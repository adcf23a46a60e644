import { startEmulator, type Emulator } from '@repo/llm-emulator';
import { DatabaseUnavailable } from '@repo/pg-kit';
import pg from 'pg';
import { UNKNOWN_EMAIL } from '../src/email/thread-email.js';
import type { ThreadStore } from '../src/threads/thread-store.js';
import type { Thread } from '../src/threads/thread.js';
import {
  dropSchema,
  freshSchema,
  postgresTestsEnabled,
  TEST_DATABASE_URL,
  until,
} from './support/database.js';
import { BILLING_EMAIL } from './support/emails.js';
import { startInstance, type Instance } from './support/harness.js';
import { llmCalls } from './support/llm-calls.js';
import { startServer, type ServerProcess } from './support/server-process.js';

const withPostgres = await postgresTestsEnabled();
const describePg = withPostgres ? describe : describe.skip;
const CREATES = 50;

interface Row {
  thread_id: string;
  status: string;
  view: Thread;
}

/** The model work is queued: a crash leaves jobs, not orphans (src/jobs/model-jobs.ts). */
describePg('model work on the queue', () => {
  const schema = freshSchema('modeljobs');
  let emulator: Emulator;
  const servers: ServerProcess[] = [];
  let db: pg.Client;

  const rows = async () =>
    (await db.query<Row>(`SELECT thread_id, status, view FROM "${schema}".email_threads`)).rows;
  const jobsLeft = async () =>
    Number(
      (
        await db.query<{ n: string }>(
          `SELECT count(*) AS n FROM "${schema}_pgboss".job WHERE name = 'email-model-work'`,
        )
      ).rows[0]!.n,
    );
  const drafts = async (threadId: string) =>
    (
      await db.query(
        `SELECT 1 FROM "${schema}".email_thread_history, jsonb_array_elements(event) AS e
         WHERE thread_id = $1 AND e->>'type' = 'drafted'`,
        [threadId],
      )
    ).rowCount;

  beforeAll(async () => {
    emulator = await startEmulator();
    db = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await db.connect();
  });
  afterEach(() => {
    emulator.setLatency(0);
    emulator.requests.clear();
  });
  afterAll(async () => {
    for (const server of servers) server.child.kill('SIGKILL');
    await Promise.all(servers.map((server) => server.exited));
    await db?.end();
    await emulator?.close();
    await dropSchema(schema);
  });

  test('when an instance is SIGKILLed during 50 concurrent creates and restarted, then within 60 s and with no request every thread is awaiting review with one draft, and the model saw at most one classify and one draft again per thread', async () => {
    const env = {
      LLM_A_API_KEY: 'test-key',
      LLM_A_BASE_URL: `${emulator.url}/v1`,
      DATABASE_URL: TEST_DATABASE_URL,
      DATABASE_SCHEMA: schema,
      PG_POOL_MAX: '20',
      // A dead instance's jobs are anyone's after 5 s; the model retries within 2 s a step.
      MODEL_JOB_LEASE_SECONDS: '5',
      LLM_RETRY_BUDGET_MS: '2000',
      MODEL_JOB_CONCURRENCY: '8',
    };
    const doomed = await startServer(env);
    servers.push(doomed.process);
    emulator.setLatency(300);
    const marker = (i: number) => `(#${i})`;
    const pending = Array.from({ length: CREATES }, (_, i) =>
      fetch(`${doomed.url}/threads`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ inbound: `${BILLING_EMAIL}\n${marker(i)}` }),
      }).catch((error: unknown) => error),
    );
    // Killed with the model busy: some threads mid-classify, some mid-draft, some done.
    await until(() => emulator.requests.list().length >= CREATES, 'the model calls', 30_000);
    doomed.process.child.kill('SIGKILL');
    await doomed.process.exited;
    await Promise.all(pending);
    emulator.setLatency(0);
    const atCrash = await rows();
    expect(atCrash.filter((row) => row.status === 'drafting').length).toBeGreaterThan(0);

    const restarted = await startServer(env);
    servers.push(restarted.process);
    await until(
      async () => (await rows()).every((row) => row.status === 'awaiting_review'),
      'every thread awaiting review',
      60_000,
    ).catch(async (error: Error) => {
      // Which threads, and what the queue still holds for them.
      const left = (await rows()).filter((row) => row.status !== 'awaiting_review');
      const jobs = await db.query(
        `SELECT singleton_key, state, retry_count FROM "${schema}_pgboss".job WHERE name = 'email-model-work'`,
      );
      const unsettled = left.map((row) => `${row.thread_id} ${row.status}`).join(', ');
      throw new Error(`${error.message}: ${unsettled}; jobs ${JSON.stringify(jobs.rows)}`, {
        cause: error,
      });
    });

    const settled = await rows();
    expect(settled.length).toBe(atCrash.length);
    const calls = emulator.requests.list().filter((call) => call.provider === 'openai');
    let attributed = 0;
    for (const row of settled) {
      expect(row.view.draft).toEqual(expect.any(String));
      expect(row.view.revision).toBe(1);
      expect(await drafts(row.thread_id)).toBe(1);
      const i = Number(/\(#(\d+)\)$/.exec(row.view.inbound)![1]);
      const mine = calls.filter((call) => JSON.stringify(call.body).includes(marker(i)));
      const classify = mine.filter((call) => JSON.stringify(call.body).includes('json_schema'));
      attributed += mine.length;
      // One classify and one draft, plus at most one of each again for the run the crash cut
      // short (its checkpoint is written when a run stops).
      expect(classify.length).toBeLessThanOrEqual(2);
      expect(mine.length - classify.length).toBeLessThanOrEqual(2);
    }
    expect(attributed).toBe(calls.length);
    // Each result's transaction deleted its job.
    expect(await jobsLeft()).toBe(0);
  }, 150_000);

  /**
   * Creates a thread on `instance`, whose first run fails to keep something (the database away),
   * and waits for the queue's rerun: the thread ends awaiting review with its job gone. Returns
   * the model calls made for it and its history.
   */
  async function createAndAwaitRerun(instance: Instance) {
    try {
      emulator.requests.clear();
      const created = await instance.threads.createThread({
        inbound: BILLING_EMAIL,
        email: UNKNOWN_EMAIL,
      });
      await expect(created.drafted).rejects.toBeInstanceOf(DatabaseUnavailable);
      const id = created.thread.thread_id;
      expect((await instance.threads.getThread(id)).status).toBe('drafting');
      await until(
        async () => (await instance.threads.getThread(id)).status === 'awaiting_review',
        'the job to run again',
        20_000,
      );
      expect((await instance.threads.getThread(id)).draft).toEqual(expect.any(String));
      expect(await jobsLeft()).toBe(0);
      const history = await instance.threads.getThreadHistory(id);
      return { calls: llmCalls(emulator), events: history.events.map((e) => e.type) };
    } finally {
      await instance.close();
    }
  }

  /** The thread store, with the first write of a model job's result failing (the database away). */
  function failingFirstResult(threads: ThreadStore): ThreadStore {
    let failOnce = true;
    return {
      create: threads.create.bind(threads),
      get: threads.get.bind(threads),
      list: threads.list.bind(threads),
      history: threads.history,
      counts: threads.counts.bind(threads),
      saveDecision: async (tx, change) => {
        if (change.from === 'drafting' && failOnce) {
          failOnce = false;
          throw new DatabaseUnavailable();
        }
        return threads.saveDecision(tx, change);
      },
    };
  }

  test('when a job’s result cannot be committed (the database away at that moment), then the queue runs the job again and the thread ends awaiting review without asking the model again', async () => {
    const instance = await startInstance({
      mode: 'postgres',
      emulator,
      schema,
      modelWork: { leaseSeconds: 2, concurrency: 1 },
      wrapThreads: failingFirstResult,
    });
    const { calls, events } = await createAndAwaitRerun(instance);
    expect(calls).toMatchObject({ classify: 1, draft: 1 });
    expect(events).toEqual(['created', 'classified', 'drafted']);
  }, 60_000);

  test('when a run’s checkpoint is lost (the process died as the run stopped), then the job’s rerun drafts from the email and the thread ends awaiting review with one draft', async () => {
    let loseOnce = true;
    const instance = await startInstance({
      mode: 'postgres',
      emulator,
      schema,
      modelWork: { leaseSeconds: 2, concurrency: 1 },
      // The run's one checkpoint is never written, as when the process dies right there.
      wrapThreads: failingFirstResult,
      wrapCheckpointer: (saver) =>
        Object.assign(Object.create(saver) as typeof saver, {
          put: (...args: Parameters<typeof saver.put>) => {
            if (loseOnce) {
              loseOnce = false;
              return Promise.reject(new DatabaseUnavailable());
            }
            return saver.put(...args);
          },
        }),
    });
    const { calls, events } = await createAndAwaitRerun(instance);
    // The lost run's two calls, and the rerun's.
    expect(calls).toMatchObject({ classify: 2, draft: 2 });
    expect(events).toEqual(['created', 'classified', 'drafted']);
  }, 60_000);
});
