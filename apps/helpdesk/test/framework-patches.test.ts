import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { FRAMEWORK_PATCHES } from '../src/patches/index.js';

const appDir = resolve(process.cwd());
const repoDir = resolve(appDir, '../..');
/** A register path: from the app (its own patches) or from the repository root (http-kit's). */
const located = (path: string) =>
  existsSync(join(appDir, path)) ? join(appDir, path) : join(repoDir, path);
const require = createRequire(join(appDir, 'package.json'));

/** The version installed, from the package's own package.json (found from its entry point). */
function installedVersion(library: string): string {
  let dir = dirname(require.resolve(library));
  while (!existsSync(join(dir, 'package.json')) || !isPackageRoot(dir, library)) {
    dir = dirname(dir);
  }
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string })
    .version;
}

function isPackageRoot(dir: string, library: string): boolean {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    name?: string;
  };
  return manifest.name === library;
}

describe('framework patches', () => {
  it.each(FRAMEWORK_PATCHES.map((p) => [p.id, p] as const))(
    'when %s is listed, then the installed library is the version it was checked against',
    (_id, patch) => {
      expect(`${patch.library}@${installedVersion(patch.library)}`).toBe(
        `${patch.library}@${patch.version}`,
      );
    },
  );

  it.each(FRAMEWORK_PATCHES.map((p) => [p.id, p] as const))(
    'when %s is listed, then its file opens with library@version and names its guarding test',
    (_id, patch) => {
      const source = readFileSync(located(patch.file), 'utf8');

      expect(source.startsWith('/**')).toBe(true);
      expect(source).toContain(`${patch.library}@${patch.version}`);
      for (const test of patch.guardedBy.split(', ')) {
        expect(existsSync(located(test))).toBe(true);
        expect(source).toContain(test);
      }
    },
  );
});
