import { join } from 'node:path';
import { IMAGES } from './support/images.js';
import { readPackageJson, readRepoFile, repoRoot } from './support/repo.js';

interface Stage {
  /** The name after `AS`. */
  name: string;
  from: string;
  lines: string[];
}

/**
 * Splits a Dockerfile into its stages, joining `\`-continued lines, with the build arguments given substituted as
 * Docker (in FROM, ENV, EXPOSE…) and the shell (in RUN) would.
 */
function stages(dockerfile: string, args: Record<string, string>): Stage[] {
  const lines = dockerfile
    .replace(/\\\n\s*/g, ' ')
    .replace(/\$\{?([A-Z_]+)\}?/g, (whole, name: string) => args[name] ?? whole)
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const result: Stage[] = [];
  for (const line of lines) {
    if (line.startsWith('FROM '))
      result.push({ from: line, name: / AS (\S+)$/.exec(line)?.[1] ?? '', lines: [] });
    else result.at(-1)?.lines.push(line);
  }
  return result;
}

const pnpmVersion = /^pnpm@(.+)$/.exec(
  (JSON.parse(readRepoFile('package.json')) as { packageManager: string }).packageManager,
)?.[1];

const dockerfile = readRepoFile('Dockerfile');

describe('Dockerfile (one for every image)', () => {
  const all = stages(dockerfile, {});

  test('when built without a target, then the image is a service (the app stage comes last)', () => {
    expect(all.at(-1)?.name).toBe('app');
  });

  test('when several images are built, then they share the install layers: APP is declared after them', () => {
    const build = all.find((stage) => stage.name === 'build')?.lines ?? [];
    const install = build.findIndex((line) => line.startsWith('RUN pnpm install'));
    const app = build.indexOf('ARG APP');
    expect(install).toBeGreaterThan(-1);
    expect(app).toBeGreaterThan(install);
  });

  test('when APP is not given, then the build stops with a message saying so', () => {
    expect(dockerfile).toMatch(/^RUN test -n "\$APP" \|\| \{ echo 'APP is required/m);
  });
});

describe.each(IMAGES)(
  'Dockerfile with APP=$name (target $target)',
  ({ dir, name, target, port }) => {
    const all = stages(dockerfile, { APP: name, PORT: String(port) });
    const build = (all.find((stage) => stage.name === 'build')?.lines ?? []).join('\n');
    const runtime = all.find((stage) => stage.name === target)!;
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
      expect(dockerfile).toMatch(/ARG NODE_IMAGE=node:\d+-(bookworm-)?slim/);
      expect(runtimeText).toMatch(/ENV NODE_ENV=production/);
      expect(runtimeText).toMatch(/^USER (?!root\b|0\b)\S+/m);
      expect(runtimeText).not.toMatch(/\b(pnpm|npm|yarn|corepack)\b/);
      // Exactly the cleaned-up deploy bundle, which the deploy test runs.
      expect(runtimeText).toMatch(/^COPY --from=build \/out \.\/$/m);
    });

    // A service is healthy once it serves (/readyz: its database reached), not once it listens; the
    // emulator serves as soon as it listens and has /healthz only.
    const healthPath = target === 'app' ? '/readyz' : '/healthz';

    test(`when run, then it exposes the port the package listens on, checks ${healthPath} with node and starts with node`, () => {
      expect(runtimeText).toContain(`EXPOSE ${port}`);
      expect(runtimeText).toMatch(
        new RegExp(`HEALTHCHECK .*CMD \\["node", "-e", ".*${healthPath}'`),
      );
      const cmd = /^CMD (\[.*\])$/m.exec(runtimeText)?.[1];
      const [command, script] = JSON.parse(cmd ?? '[]') as string[];
      expect(command).toBe('node');
      // The script is the package's own entry point (what its `start` script runs).
      const start = (readPackageJson(join(repoRoot, dir)) as { scripts?: Record<string, string> })
        .scripts?.start;
      expect(start).toBe(`node ${script}`);
    });
  },
);

describe('.dockerignore', () => {
  test('when the context is sent, then dependencies, build output and local env files stay out', () => {
    const ignored = readRepoFile('.dockerignore').split('\n');
    for (const pattern of ['**/node_modules', '**/dist', '.env', '.git'])
      expect(ignored).toContain(pattern);
  });
});
