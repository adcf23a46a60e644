import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { installedVersion } from '@repo/http-kit';
import { FRAMEWORK_PATCHES } from '../src/patches/index.js';

const appDir = resolve(process.cwd());
const repoDir = resolve(appDir, '../..');
/** A register path: from the app (its own patches) or from the repository root (http-kit's). */
const located = (path: string) =>
  existsSync(join(appDir, path)) ? join(appDir, path) : join(repoDir, path);

describe('framework patches', () => {
  it.each(FRAMEWORK_PATCHES.map((p) => [p.id, p] as const))(
    'when %s is listed, then the installed library is the version it was checked against',
    (_id, patch) => {
      expect(`${patch.library}@${installedVersion(patch.library, appDir)}`).toBe(
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
