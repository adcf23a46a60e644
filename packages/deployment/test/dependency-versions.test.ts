import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { readRepoFile, repoRoot } from './support/repo.js';

const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies'] as const;

interface Manifest {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  pnpm?: { overrides?: Record<string, string> };
}

interface Workspace {
  packages: string[];
  catalog?: Record<string, string>;
}

/** One exact release (`1.2.3`, `1.0.0-rc.1`): no range, tag or URL. */
const EXACT_VERSION = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;

const workspace = parse(readRepoFile('pnpm-workspace.yaml')) as Workspace;
const catalog = workspace.catalog ?? {};

/** The root and every workspace package (`apps/*`, `bench`, ...), by directory relative to the root. */
function manifests(): Map<string, Manifest> {
  const dirs = ['.'];
  for (const pattern of workspace.packages) {
    if (!pattern.endsWith('/*')) {
      dirs.push(pattern);
      continue;
    }
    const parent = pattern.slice(0, -2);
    for (const entry of readdirSync(join(repoRoot, parent), { withFileTypes: true }))
      if (entry.isDirectory() && existsSync(join(repoRoot, parent, entry.name, 'package.json')))
        dirs.push(`${parent}/${entry.name}`);
  }
  return new Map(
    dirs.map((dir) => [dir, JSON.parse(readRepoFile(join(dir, 'package.json'))) as Manifest]),
  );
}

/**
 * Every way a manifest strays from one exact version per dependency: a dependency two or more packages use that
 * is not taken from the catalog, a version that is not exact, or a `catalog:` the catalog does not hold.
 */
function versionProblems(
  packages: Map<string, Manifest>,
  entries: Record<string, string>,
): string[] {
  const users = new Map<string, number>();
  for (const manifest of packages.values())
    for (const field of DEPENDENCY_FIELDS)
      for (const [name, spec] of Object.entries(manifest[field] ?? {}))
        if (!spec.startsWith('workspace:')) users.set(name, (users.get(name) ?? 0) + 1);

  const problems: string[] = [];
  for (const [dir, manifest] of packages) {
    for (const field of DEPENDENCY_FIELDS) {
      for (const [name, spec] of Object.entries(manifest[field] ?? {})) {
        const where = `${dir}/package.json ${field} ${name}: "${spec}"`;
        if (spec.startsWith('workspace:')) continue;
        if (spec === 'catalog:') {
          if (!(name in entries)) problems.push(`${where} is not in the catalog`);
        } else if ((users.get(name) ?? 0) > 1) {
          problems.push(`${where} is shared: use "catalog:"`);
        } else if (!EXACT_VERSION.test(spec)) {
          problems.push(`${where} is not an exact version`);
        }
      }
    }
    for (const [name, spec] of Object.entries(manifest.pnpm?.overrides ?? {}))
      if (!(spec === 'catalog:' && name in entries) && !EXACT_VERSION.test(spec))
        problems.push(
          `${dir}/package.json pnpm.overrides ${name}: "${spec}" is not an exact version`,
        );
  }
  for (const [name, version] of Object.entries(entries))
    if (!EXACT_VERSION.test(String(version)))
      problems.push(`pnpm-workspace.yaml catalog ${name}: "${version}" is not an exact version`);
  return problems;
}

describe('dependency versions', () => {
  test('when the workspace is read, then it finds the root, both apps, the packages, bench and eval', () => {
    expect([...manifests().keys()]).toEqual(
      expect.arrayContaining([
        '.',
        'apps/email-review',
        'apps/helpdesk',
        'packages/http-kit',
        'bench',
        'eval',
      ]),
    );
  });

  test('when every package.json is read, then each shared dependency comes from the catalog and every version is exact', () => {
    expect(versionProblems(manifests(), catalog)).toEqual([]);
  });

  test('when two packages pin a shared dependency themselves, or one uses a range, then each is reported', () => {
    const drifted = new Map<string, Manifest>([
      ['apps/a', { dependencies: { pg: '8.23.1', zod: 'catalog:' } }],
      ['apps/b', { dependencies: { pg: '^8.16.3', zod: 'catalog:', 'lru-cache': '~11.5.3' } }],
    ]);
    expect(versionProblems(drifted, { zod: '^4.6.7' })).toEqual([
      'apps/a/package.json dependencies pg: "8.23.1" is shared: use "catalog:"',
      'apps/b/package.json dependencies pg: "^8.16.3" is shared: use "catalog:"',
      'apps/b/package.json dependencies lru-cache: "~11.5.3" is not an exact version',
      'pnpm-workspace.yaml catalog zod: "^4.6.7" is not an exact version',
    ]);
  });
});
