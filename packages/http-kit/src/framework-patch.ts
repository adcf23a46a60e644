import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * One entry of the repository's register of framework patches (FRAMEWORK_PATCHES): where code
 * reaches into a library's internals, which version that was checked against, what it buys (the
 * bench's scenario 5 measures the speed ones), and the tests that guard it. Paths are from the
 * repository root.
 */
export interface FrameworkPatch {
  id: string;
  library: string;
  /** The installed version the patch was checked against; the register's test fails when it moves. */
  version: string;
  file: string;
  touches: string;
  gain: string;
  guardedBy: string[];
}

/**
 * The installed version of `library` as `fromDir`'s package resolves it, read from the library's
 * own package.json (found from its entry point): what a register's pinned `version` is checked
 * against.
 */
export function installedVersion(library: string, fromDir: string): string {
  const require = createRequire(join(fromDir, 'package.json'));
  let dir = dirname(require.resolve(library));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const read = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version: string };
      if (read.name === library) return read.version;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json of ${library} above its entry point`);
    dir = parent;
  }
}
