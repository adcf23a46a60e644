import { startEmulator, type Emulator } from '@repo/llm-emulator';
import pg from 'pg';
import { queueSchema } from '../src/db/tables.js';
import {
  dropSchema,
  freshSchema,
  postgresTestsEnabled,
  TEST_DATABASE_URL,
  until,
} from './support/database.js';
import { startServer, type ServerProcess } from './support/server-process.js';

// Issue 40: a guideline derivation is a job in PostgreSQL; its instance dying does not lose it.

const describePg = (await postgresTestsEnabled()) ? describe : describe.skip;

interface GuidelineView {
  rule: string;
  sources: { thread_id: string }[];
}

async function call<T>(
  url: string,
  method: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await fetch(url, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as T };
}

const derivationRequests = (emulator: Emulator) =>
  emulator.requests.list().filter((r) => JSON.stringify(r.body).includes('"reviewer_guidelines"'))
    .length;

describePg('a guideline derivation across a crash (postgres)', () => {
  const schema = freshSchema('derivecrash');
  const servers: ServerProcess[] = [];
  let emulator: Emulator;

  beforeAll(async () => {
    emulator = await startEmulator();
  });
  afterAll(async () => {
    for (const server of servers)
      if (server.child.exitCode === null && server.child.signalCode === null) {
        server.child.kill('SIGTERM');
        await server.exited;
      }
    await emulator?.close();
    await dropSchema(schema);
  });

  test('when the instance running a derivation is SIGKILLed, then another instance runs it later, once', async () => {
    const env = {
      LLM_A_API_KEY: 'test-key',
      LLM_A_BASE_URL: `${emulator.url}/v1`,
      DATABASE_URL: TEST_DATABASE_URL,
      DATABASE_SCHEMA: schema,
      // The dead instance's job is anyone's after this.
      MODEL_JOB_LEASE_SECONDS: '3',
      LLM_RETRY_BUDGET_MS: '1000',
      LOG_LEVEL: 'info',
    };
    const doomed = await startServer(env);
    servers.push(doomed.process);
    const created = await call<{ thread_id: string; draft: string }>(
      `${doomed.url}/threads`,
      'POST',
      { from: 'Ann <ann@crash.test>', inbound: 'Hello, where is my order C-1?' },
    );
    expect(created.status).toBe(201);
    const { thread_id: threadId, draft } = created.body;
    const [, ...rest] = draft.split('\n');
    const edited = ['Dear Ann,', '', 'Order reference: C-1', ...rest].join('\n');
    expect(
      (await call(`${doomed.url}/threads/${threadId}/edit`, 'POST', { draft: edited })).status,
    ).toBe(200);
    emulator.requests.clear();
    // The derivation's model call never answers: the instance dies in the middle of it.
    emulator.faults.add({ provider: 'openai', kind: 'hang', count: 1 });

    expect((await call(`${doomed.url}/threads/${threadId}/approve`, 'POST', {})).status).toBe(200);
    await until(() => derivationRequests(emulator) === 1, 'the derivation under way');
    doomed.process.child.kill('SIGKILL');
    await doomed.process.exited;

    const restarted = await startServer(env);
    servers.push(restarted.process);
    const learned = async () =>
      (
        await call<{ guidelines: GuidelineView[] }>(
          `${restarted.url}/guidelines?value=crash.test`,
          'GET',
        )
      ).body.guidelines;
    await until(
      async () => (await learned()).length === 2,
      'the guidelines, derived after the crash',
      30_000,
    );

    for (const guideline of await learned())
      expect(guideline.sources.map((s) => s.thread_id)).toEqual([threadId]);
    expect(derivationRequests(emulator)).toBe(2);
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      const jobs = await client.query<{ state: string }>(
        `SELECT state FROM "${queueSchema(schema)}".job WHERE name = 'guideline-derivation'`,
      );
      expect(jobs.rows.map((row) => row.state)).toEqual(['completed']);
      const recorded = await client.query(
        `SELECT job_id FROM "${schema}".email_guideline_derivations WHERE thread_id = $1`,
        [threadId],
      );
      expect(recorded.rowCount).toBe(1);
    } finally {
      await client.end();
    }
  }, 90_000);
});
