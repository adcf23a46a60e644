import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readRepoFile, repoRoot } from './support/repo.js';

interface Manifest {
  name: string;
  scripts?: Record<string, string>;
}

/** Dependencies pnpm would ask about: an install-time script, or a binding.gyp (an implicit node-gyp build). */
function packagesWithBuildScripts(): Set<string> {
  const store = join(repoRoot, 'node_modules/.pnpm');
  const names = new Set<string>();
  for (const entry of readdirSync(store)) {
    const modules = join(store, entry, 'node_modules');
    if (!existsSync(modules)) continue;
    const name = entry.startsWith('@')
      ? entry.replace('+', '/').replace(/@[^@]*$/, '')
      : entry.replace(/@[^@]*$/, '');
    const dir = join(modules, name);
    if (!existsSync(join(dir, 'package.json'))) continue;
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
    const scripts = manifest.scripts ?? {};
    if (
      ['preinstall', 'install', 'postinstall'].some((hook) => scripts[hook]) ||
      existsSync(join(dir, 'binding.gyp'))
    )
      names.add(manifest.name);
  }
  return names;
}

describe('install output', () => {
  test('when the workspace is installed, then every dependency with a build script is declared as allowed or ignored, so pnpm prints no "Ignored build scripts" box', () => {
    const { pnpm } = JSON.parse(readRepoFile('package.json')) as {
      pnpm?: { onlyBuiltDependencies?: string[]; ignoredBuiltDependencies?: string[] };
    };
    const declared = [
      ...(pnpm?.onlyBuiltDependencies ?? []),
      ...(pnpm?.ignoredBuiltDependencies ?? []),
    ];
    const found = packagesWithBuildScripts();
    // A sanity check of the scan: esbuild's postinstall is always in this workspace (via ADK's devtools and LangGraph's dev server).
    expect(found).toContain('esbuild');
    expect([...found].filter((name) => !declared.includes(name)).sort()).toEqual([]);
  });
});
