import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FRAMEWORK_PATCHES, installedVersion } from '../src/index.js';

const repoDir = fileURLToPath(new URL('../../../', import.meta.url));

/** The directory of the package (app, package, bench) that holds `file`, by its nearest package.json. */
function packageDirOf(file: string): string {
  let dir = dirname(join(repoDir, file));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return dir;
}

/** Every file in a `src/patches/` folder of an app or a package, from the repository root. */
function filesInPatchFolders(): string[] {
  return ['apps', 'packages'].flatMap((group) =>
    readdirSync(join(repoDir, group)).flatMap((name) => {
      const folder = join(repoDir, group, name, 'src', 'patches');
      if (!existsSync(folder)) return [];
      return readdirSync(folder).map((file) => relative(repoDir, join(folder, file)));
    }),
  );
}

describe('the register of framework patches', () => {
  test('when the register is read, then each id is listed once', () => {
    const ids = FRAMEWORK_PATCHES.map((patch) => patch.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test.each(FRAMEWORK_PATCHES.map((patch) => [patch.id, patch] as const))(
    'when %s is listed, then its file and its guarding tests exist, and the installed library is the version it was checked against',
    (_id, patch) => {
      expect(existsSync(join(repoDir, patch.file))).toBe(true);
      expect(patch.guardedBy.length).toBeGreaterThan(0);
      for (const test of patch.guardedBy)
        expect(`${test}: ${existsSync(join(repoDir, test))}`).toBe(`${test}: true`);
      const installed = installedVersion(patch.library, packageDirOf(patch.file));
      expect(`${patch.library}@${installed}`).toBe(`${patch.library}@${patch.version}`);
    },
  );

  test('when a file sits in a src/patches/ folder, then the register lists it', () => {
    const listed = new Set(FRAMEWORK_PATCHES.map((patch) => patch.file));
    expect(filesInPatchFolders().filter((file) => !listed.has(file))).toEqual([]);
  });
});
