import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { readRepoFile, repoRoot } from './support/repo.js';

const run = promisify(execFile);

interface DryRun {
  envMode: string;
  tasks: Array<{ taskId: string; hash: string }>;
}

/** The tasks turbo would run for these arguments, with their cache keys, without building anything. */
async function plannedBuild(turboArgs: string[]): Promise<Map<string, string>> {
  const turbo = join(repoRoot, 'node_modules/.bin/turbo');
  const { stdout } = await run(turbo, [...turboArgs, '--dry-run=json'], {
    cwd: repoRoot,
    maxBuffer: 16 * 1024 * 1024,
  });
  const plan = JSON.parse(stdout.slice(stdout.indexOf('{'))) as DryRun;
  return new Map(plan.tasks.map((task) => [task.taskId, task.hash]));
}

/** `turbo run build …` as the root package.json's script runs it (pnpm's `turbo` is that binary). */
function rootScriptBuild(script: string): string[] {
  const scripts = (JSON.parse(readRepoFile('package.json')) as { scripts: Record<string, string> })
    .scripts;
  const build = /^turbo (run build[^&]*?)\s*(&&|$)/.exec(scripts[script] ?? '')?.[1];
  if (!build) throw new Error(`the root ${script} script does not start with turbo run build`);
  return build.split(/\s+/);
}

/** Every `turbo run build --filter=…` command the READMEs tell a person to type. */
function readmeBuilds(): string[][] {
  return ['README.md', 'apps/email-review/README.md', 'apps/helpdesk/README.md'].flatMap((path) =>
    [...readRepoFile(path).matchAll(/turbo (run build(?: --filter=\S+)+)/g)].map((match) =>
      match[1]!.split(/\s+/),
    ),
  );
}

describe('one build cache', () => {
  test('when the demo has built, then every build command a README gives has the same cache key for every task (turbo reports them cached), since env mode and inputs are one', async () => {
    const demo = await plannedBuild(rootScriptBuild('demo'));
    const commands = readmeBuilds();
    expect(commands.length).toBeGreaterThanOrEqual(3);
    for (const command of commands) {
      const readme = await plannedBuild(command);
      const differing = [...readme].filter(([task, hash]) => demo.get(task) !== hash);
      expect({ command: command.join(' '), differing }).toEqual({
        command: command.join(' '),
        differing: [],
      });
    }
  }, 120_000);
});
