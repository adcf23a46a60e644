import { readFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * The `version` of the package.json at `url`: a service's OpenAPI `info.version`. Given as
 * `new URL('../package.json', import.meta.url)`, the same path from src/ (tests) and dist/.
 */
export function readPackageVersion(url: URL): string {
  return z.object({ version: z.string() }).parse(JSON.parse(readFileSync(url, 'utf8'))).version;
}
