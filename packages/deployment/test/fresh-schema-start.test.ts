import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type pg from 'pg';
import {
  connectOrSkip,
  dropTestSchema,
  freshSchemaName,
  TEST_DATABASE_URL,
} from './support/postgres.js';
import { freePort, minimalEnv, WatchedProcess } from './support/processes.js';
import { repoRoot } from './support/repo.js';

interface LogLine {
  level: number;
  msg: string;
}

/**
 * The service's readiness, asked every 20 ms (as often as a few load balancers might) from its start until it is
 * ready: the answers, 0 for no connection yet.
 */
async function pollUntilReady(url: string, service: WatchedProcess): Promise<number[]> {
  const answers: number[] = [];
  const deadline = Date.now() + 60_000;
  while (answers.at(-1) !== 200) {
    if (service.child.exitCode !== null) throw new Error(`exited:\n${service.output}`);
    if (Date.now() > deadline) throw new Error(`not ready in 60 s:\n${service.output}`);
    answers.push(
      await fetch(url).then(
        (response) => response.status,
        () => 0,
      ),
    );
    await delay(20);
  }
  return answers;
}

describe.each(['email-review', 'helpdesk'] as const)('%s started on a fresh schema', (app) => {
  let pool: pg.Pool | undefined;
  let service: WatchedProcess | undefined;
  const schema = freshSchemaName(`fresh_${app.replace('-', '_')}`);
  const kbSchema = freshSchemaName(`fresh_kb_${app.replace('-', '_')}`);

  beforeAll(async () => {
    pool = await connectOrSkip(`the fresh-schema start of ${app}`);
  });

  afterAll(async () => {
    await service?.stop();
    if (pool) for (const name of [schema, kbSchema]) await dropTestSchema(pool, name);
    await pool?.end();
  });

  test('when it sets the schema up while its readiness is polled, then it logs no warning, no error and no stack trace', async () => {
    if (!pool) return;
    const port = await freePort();
    service = new WatchedProcess(process.execPath, ['dist/server.js'], {
      cwd: join(repoRoot, 'apps', app),
      env: minimalEnv({
        HOST: '127.0.0.1',
        PORT: String(port),
        DATABASE_URL: TEST_DATABASE_URL,
        DATABASE_SCHEMA: schema,
        KB_SCHEMA: kbSchema,
        KB_DIR: join(repoRoot, 'packages/knowledge/sample-help-center'),
        // No model is called: any key starts the service.
        LLM_A_API_KEY: 'unused',
        AGENT_LLM_API_KEY: 'unused',
      }),
    });
    const answers = await pollUntilReady(`http://127.0.0.1:${port}/readyz`, service);
    await service.waitForOutput(/ready on http/, 10_000);

    const lines = service.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as LogLine);
    // The polls met the set-up: the service answered 503 before it was ready.
    expect(answers).toContain(503);
    expect(lines.filter((line) => line.level >= 40).map((line) => line.msg)).toEqual([]);
    expect(service.stdout).not.toContain('"stack"');
    expect(service.stderr).toBe('');
  }, 90_000);
});
