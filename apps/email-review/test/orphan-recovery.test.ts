import { startEmulator, type Emulator } from '@repo/llm-emulator';
import pg from 'pg';
import {
  dropSchema,
  freshSchema,
  postgresTestsEnabled,
  TEST_DATABASE_URL,
  until,
} from './support/database.js';
import { BILLING_EMAIL, OUTAGE_EMAIL } from './support/emails.js';
import { UNKNOWN_EMAIL } from '../src/email/thread-email.js';
import { startInstance } from './support/harness.js';
import { startServer, type ServerProcess } from './support/server-process.js';

const withPostgres = await postgresTestsEnabled();
const describePg = withPostgres ? describe : describe.skip;
const CREATES = 16;
const EDITS = 16;
const APPROVES = 8;

interface Row {
  thread_id: string;
  status: string;
  error: { code: string; message: string } | null;
  delivery: string | null;
}

async function post(url: string, body: unknown): Promise<unknown> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
    .then((res) => res.json())
    .catch((error: unknown) => error);
}

describePg('orphan recovery', () => {
  const schema = freshSchema('orphans');
  let emulator: Emulator;
  const servers: ServerProcess[] = [];
  let db: pg.Client;

  const env = () => ({
    LLM_A_API_KEY: 'test-key',
    LLM_A_BASE_URL: `${emulator.url}/v1`,
    DATABASE_URL: TEST_DATABASE_URL,
    DATABASE_SCHEMA: schema,
    PG_POOL_MAX: '4',
    THREAD_LEASE_MS: '2000',
    RECOVERY_INTERVAL_MS: '1000',
  });

  async function rows(): Promise<Row[]> {
    const result = await db.query<Row>(
      `SELECT t.thread_id, t.status, t.view->'error' AS error, d.status AS delivery
       FROM "${schema}".email_threads t LEFT JOIN "${schema}".email_deliveries d USING (thread_id)`,
    );
    return result.rows;
  }

  beforeAll(async () => {
    emulator = await startEmulator();
    db = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    for (const server of servers) server.child.kill('SIGKILL');
    await Promise.all(servers.map((server) => server.exited));
    await db?.end();
    await emulator?.close();
    await dropSchema(schema);
  });

  test('when the process is SIGKILLed during 16 creates and 16 instruction edits with a 300 ms model, then after a restart every thread is awaiting review or failed with a reason within 60 s, each recovered by one instance, and the delivery invariant holds', async () => {
    const doomed = await startServer(env());
    servers.push(doomed.process);
    const reviewable: string[] = [];
    for (let i = 0; i < EDITS + APPROVES; i += 1) {
      const created = (await post(`${doomed.url}/threads`, {
        inbound: BILLING_EMAIL,
        from: 'ann@example.com',
      })) as {
        thread_id: string;
      };
      reviewable.push(created.thread_id);
    }
    emulator.setLatency(300);
    emulator.requests.clear();

    const pending = [
      ...Array.from({ length: CREATES }, (_, i) =>
        post(`${doomed.url}/threads`, { inbound: `${OUTAGE_EMAIL}\n(#${i})` }),
      ),
      ...reviewable
        .slice(0, EDITS)
        .map((id) =>
          post(`${doomed.url}/threads/${id}/edit`, { instructions: 'Offer a 10% discount.' }),
        ),
      ...reviewable.slice(EDITS).map((id) => post(`${doomed.url}/threads/${id}/approve`, {})),
    ];
    // Killed once the model is busy with most of them: some mid-classify, some mid-draft.
    await until(() => emulator.requests.list().length >= CREATES, 'the model calls', 20_000);
    doomed.process.child.kill('SIGKILL');
    await doomed.process.exited;
    await Promise.all(pending);
    emulator.setLatency(0);
    const drafting = (await rows()).filter((row) => row.status === 'drafting');
    expect(drafting.length).toBeGreaterThan(0);

    // Two instances come back; nobody sends them a request.
    const restarted = await Promise.all([startServer(env()), startServer(env())]);
    servers.push(...restarted.map((server) => server.process));
    await until(
      async () => (await rows()).every((row) => row.status !== 'drafting'),
      'every thread to settle',
      60_000,
    );

    const settled = await rows();
    for (const row of settled) {
      expect(['awaiting_review', 'failed', 'sent']).toContain(row.status);
      if (row.status === 'failed') expect(row.error?.code).toEqual(expect.any(String));
      // Sent with its message queued or delivered, or not sent with nothing queued.
      if (row.status === 'sent') expect(row.delivery).toMatch(/queued|delivered|logged/);
      else expect(row.delivery).toBeNull();
    }
    const recoveriesLogged = () =>
      restarted
        .flatMap((server) => server.process.stdout().split('\n'))
        .filter((line) => line.includes('orphaned thread recovered'))
        .map((line) => (JSON.parse(line) as { thread_id: string }).thread_id);
    // The log line follows the thread's write: wait for it rather than read the output once.
    await until(
      () => recoveriesLogged().length >= drafting.length,
      'a log line for each recovery',
      10_000,
    );
    const recoveries = recoveriesLogged();
    expect(new Set(recoveries).size).toBe(recoveries.length);
    expect(recoveries.sort()).toEqual(drafting.map((row) => row.thread_id).sort());
    // Each history says the service resumed it (or gave up on it), not a reviewer.
    for (const { thread_id } of drafting) {
      const res = await fetch(`${restarted[0]!.url}/threads/${thread_id}/history`);
      const { events } = (await res.json()) as { events: Array<{ type: string; actor: string }> };
      expect(events).toContainEqual(expect.objectContaining({ type: 'retried', actor: 'system' }));
    }
  }, 120_000);

  test('when an orphan was already recovered 3 times (each recovery died too), then the next round fails it with recovery_failed, and retry still finishes it', async () => {
    const instance = await startInstance({ mode: 'postgres', emulator, schema });
    try {
      const created = await instance.threads.createThread({
        inbound: BILLING_EMAIL,
        email: UNKNOWN_EMAIL,
      });
      const thread = await created.drafted!;
      const id = thread.thread_id;
      await instance.persistence.threads.save({ ...thread, status: 'drafting' });
      for (let i = 0; i < 3; i += 1) await instance.persistence.orphans!.countAttempt(id);

      const recovery = instance.startRecovery();
      await until(
        async () => (await instance.persistence.threads.get(id))?.status === 'failed',
        'the orphan to be failed',
      );
      await recovery.stop();

      const failed = await instance.threads.getThread(id);
      expect(failed.error).toEqual({ code: 'recovery_failed', message: expect.any(String) });
      expect((await instance.persistence.history.list(id)).at(-1)).toMatchObject({
        type: 'failed',
        actor: 'system',
        code: 'recovery_failed',
      });
      expect((await instance.threads.retryThread(id)).status).toBe('awaiting_review');
    } finally {
      await instance.close();
    }
  });
});
