import { join } from 'node:path';
import { appEnv, emulatorEnv } from './support/app-env.js';
import { readPackageJson, readRepoFile, repoRoot } from './support/repo.js';

interface Stage {
  from: string;
  lines: string[];
}

/** Splits a Dockerfile into its stages, joining `\`-continued lines. */
function stages(dockerfile: string): Stage[] {
  const lines = dockerfile
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const result: Stage[] = [];
  for (const line of lines) {
    if (line.startsWith('FROM ')) result.push({ from: line, lines: [] });
    else result.at(-1)?.lines.push(line);
  }
  return result;
}

const pnpmVersion = /^pnpm@(.+)$/.exec(
  (JSON.parse(readRepoFile('package.json')) as { packageManager: string }).packageManager,
)?.[1];

const IMAGES = [
  { dir: 'apps/email-review', name: 'email-review', port: appEnv('email-review').defaultPort },
  { dir: 'apps/helpdesk', name: 'helpdesk', port: appEnv('helpdesk').defaultPort },
  { dir: 'packages/llm-emulator', name: '@repo/llm-emulator', port: emulatorEnv().defaultPort },
];

describe.each(IMAGES)('$dir/Dockerfile', ({ dir, name, port }) => {
  const all = stages(readRepoFile(`${dir}/Dockerfile`));
  const build = all
    .slice(0, -1)
    .flatMap((stage) => stage.lines)
    .join('\n');
  const runtime = all.at(-1)!;
  const runtimeText = runtime.lines.join('\n');

  test('when built, then the build stage installs the pinned pnpm without corepack, from the frozen lockfile', () => {
    expect(all.length).toBeGreaterThanOrEqual(2);
    expect(build).toContain(`npm install -g pnpm@${pnpmVersion}`);
    expect(build).not.toMatch(/corepack/);
    expect(build).toMatch(/pnpm install --frozen-lockfile/);
  });

  test('when built, then only this package and its dependencies are built, and deployed with production dependencies', () => {
    expect(build).toContain(`pnpm turbo run build --filter=${name}...`);
    expect(build).toContain(
      `pnpm deploy --config.inject-workspace-packages=true --filter ${name} --prod /out`,
    );
  });

  test('when run, then the runtime stage is slim, production, non-root, and has no package manager step', () => {
    expect(runtime.from).toMatch(/^FROM \$\{NODE_IMAGE\}|slim/);
    expect(readRepoFile(`${dir}/Dockerfile`)).toMatch(/ARG NODE_IMAGE=node:\d+-(bookworm-)?slim/);
    expect(runtimeText).toMatch(/ENV NODE_ENV=production/);
    expect(runtimeText).toMatch(/^USER (?!root\b|0\b)\S+/m);
    expect(runtimeText).not.toMatch(/\b(pnpm|npm|yarn|corepack)\b/);
    // Exactly the cleaned-up deploy bundle, which the deploy test runs.
    expect(runtimeText).toMatch(/^COPY --from=build \/out \.\/$/m);
  });

  test('when run, then it exposes the port the package listens on, checks /healthz with node and starts with node', () => {
    expect(runtimeText).toContain(`EXPOSE ${port}`);
    expect(runtimeText).toMatch(/HEALTHCHECK .*CMD \["node", "-e", ".*\/healthz/);
    const cmd = /^CMD (\[.*\])$/m.exec(runtimeText)?.[1];
    const [command, script] = JSON.parse(cmd ?? '[]') as string[];
    expect(command).toBe('node');
    // The script is the package's own entry point (what its `start` script runs).
    const start = (readPackageJson(join(repoRoot, dir)) as { scripts?: Record<string, string> })
      .scripts?.start;
    expect(start).toBe(`node ${script}`);
  });
});

describe('.dockerignore', () => {
  test('when the context is sent, then dependencies, build output and local env files stay out', () => {
    const ignored = readRepoFile('.dockerignore').split('\n');
    for (const pattern of ['**/node_modules', '**/dist', '.env', '.git'])
      expect(ignored).toContain(pattern);
  });
});
