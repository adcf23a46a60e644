import { execFile } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { promisify } from 'node:util';
import { pnpmCommand, repoRoot } from './repo.js';

const run = promisify(execFile);

/** What the Dockerfile does for each image: `pnpm deploy --prod` of one package into an empty directory outside the repo. */
export async function deployBundle(filter: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'deploy-bundle-'));
  const [command, args] = pnpmCommand([
    'deploy',
    '--config.inject-workspace-packages=true',
    '--filter',
    filter,
    '--prod',
    dir,
  ]);
  await run(command, args, {
    cwd: repoRoot,
    env: { ...process.env, CI: 'true' },
    maxBuffer: 16 * 1024 * 1024,
  });
  return dir;
}

/**
 * Applies the build stage's clean-up of /out (its `RUN rm -rf /out/...` line) to a bundle, so that the test runs
 * exactly the files the Dockerfile's runtime stage copies.
 */
export function pruneLikeDockerfile(bundle: string, dockerfile: string): string[] {
  const line = /^RUN rm -rf ((?:\/out\/\S+\s*)+)$/m.exec(dockerfile)?.[1];
  if (!line) throw new Error('the Dockerfile has no `RUN rm -rf /out/...` clean-up line');
  const paths = line
    .trim()
    .split(/\s+/)
    .map((path) => path.replace(/^\/out\//, ''));
  for (const path of paths) rmSync(join(bundle, path), { recursive: true, force: true });
  return paths;
}

export function removeBundle(dir: string | undefined): void {
  if (dir) rmSync(dir, { recursive: true, force: true });
}

/** Names of the packages installed in a pnpm node_modules (`.pnpm/<name>@<version>…` entries). */
export function installedPackages(dir: string): string[] {
  const store = join(dir, 'node_modules/.pnpm');
  if (!existsSync(store)) return [];
  return readdirSync(store)
    .filter((entry) => entry !== 'node_modules' && !entry.startsWith('lock'))
    .map((entry) => entry.replace(/^(@[^+]+)\+/, '$1/').replace(/@(file\+|link\+|\d).*$/, ''));
}

/** Symlinks under the bundle's node_modules whose target lies outside the bundle (e.g. back into the repo). */
export function linksLeavingBundle(dir: string): string[] {
  const root = realpathSync(dir) + sep;
  const leaving: string[] = [];
  const visit = (path: string, depth: number) => {
    if (depth > 6 || !existsSync(path)) return;
    for (const entry of readdirSync(path)) {
      const full = join(path, entry);
      const stat = lstatSync(full);
      if (stat.isSymbolicLink()) {
        const target = existsSync(full) ? realpathSync(full) : '(dangling)';
        if (!target.startsWith(root)) leaving.push(`${full} -> ${target}`);
      } else if (
        stat.isDirectory() &&
        (entry.startsWith('@') ||
          entry === 'node_modules' ||
          entry === '.pnpm' ||
          path.endsWith('.pnpm'))
      ) {
        visit(full, depth + 1);
      }
    }
  };
  visit(join(dir, 'node_modules'), 0);
  return leaving;
}
