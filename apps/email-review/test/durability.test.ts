import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import { startEmulator, type Emulator } from '@repo/llm-emulator';
import pg from 'pg';
import request from 'supertest';
import {
  dropSchema,
  freshSchema,
  postgresTestsEnabled,
  TEST_DATABASE_URL,
  until,
} from './support/database.js';
import { BILLING_EMAIL } from './support/emails.js';
import { startInstance } from './support/harness.js';
import { llmCalls } from './support/llm-calls.js';
import { startServer } from './support/server-process.js';

const withPostgres = await postgresTestsEnabled();
const describePg = withPostgres ? describe : describe.skip;

describePg('durability with PostgreSQL', () => {
  const schema = freshSchema('durable');
  let emulator: Emulator;

  beforeAll(async () => {
    emulator = await startEmulator();
  });
  beforeEach(() => {
    emulator.faults.clear();
    emulator.requests.clear();
  });
  afterAll(async () => {
    await emulator?.close();
    await dropSchema(schema);
  });

  test('when the service restarts on the same database, then a paused thread keeps its draft and can be approved', async () => {
    const before = await startInstance({ mode: 'postgres', emulator, schema });
    const { thread_id } = (
      await request(before.app).post('/threads').send({ inbound: BILLING_EMAIL })
    ).body;
    const edited = (
      await request(before.app)
        .post(`/threads/${thread_id}/edit`)
        .send({ draft: 'Refund on its way.' })
    ).body;
    await before.close();

    const after = await startInstance({ mode: 'postgres', emulator, schema });
    try {
      const fetched = await request(after.app).get(`/threads/${thread_id}`);
      expect(fetched.body).toEqual(edited);
      emulator.requests.clear();

      const approved = await request(after.app).post(`/threads/${thread_id}/approve`);

      expect(approved.body).toMatchObject({
        status: 'sent',
        draft: 'Refund on its way.',
        revision: 2,
      });
      expect(await after.persistence.deliveries.get(thread_id)).toMatchObject({
        body: 'Refund on its way.',
      });
      expect(llmCalls(emulator).total).toBe(0);
    } finally {
      await after.close();
    }
  });

  test('when the service process is killed with SIGKILL while a thread is paused, then nothing is lost', async () => {
    const env = {
      LLM_A_API_KEY: 'test-key',
      LLM_A_BASE_URL: `${emulator.url}/v1`,
      DATABASE_URL: TEST_DATABASE_URL,
      DATABASE_SCHEMA: schema,
    };
    const first = await startServer(env);
    const created = (await (
      await fetch(`${first.url}/threads`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ inbound: BILLING_EMAIL }),
      })
    ).json()) as { thread_id: string; status: string };
    expect(created.status).toBe('awaiting_review');

    first.process.child.kill('SIGKILL');
    expect((await first.process.exited).signal).toBe('SIGKILL');

    const second = await startServer(env);
    try {
      const fetched = await (await fetch(`${second.url}/threads/${created.thread_id}`)).json();
      expect(fetched).toEqual(created);
      const approved = await fetch(`${second.url}/threads/${created.thread_id}/approve`, {
        method: 'POST',
      });
      expect(approved.status).toBe(200);
      expect(((await approved.json()) as { status: string }).status).toBe('sent');
    } finally {
      second.process.child.kill('SIGTERM');
      await second.process.exited;
    }
  });

  test('when the process dies while drafting, then the email is kept and the queue finishes the thread with no request', async () => {
    const env = {
      LLM_A_API_KEY: 'test-key',
      LLM_A_BASE_URL: `${emulator.url}/v1`,
      DATABASE_URL: TEST_DATABASE_URL,
      DATABASE_SCHEMA: schema,
      // The dead process's job is anyone's 3 s after it was sent.
      MODEL_JOB_LEASE_SECONDS: '3',
      LLM_RETRY_BUDGET_MS: '1000',
    };
    const doomed = await startServer(env);
    // classify answers; the draft call hangs, so the process is killed in the middle of the run.
    emulator.faults.add({ provider: 'openai', kind: 'delay', delayMs: 0, count: 1 });
    emulator.faults.add({ provider: 'openai', kind: 'hang', count: 1 });
    const inbound = `${BILLING_EMAIL}\n(sent during a crash)`;
    const pending = fetch(`${doomed.url}/threads`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ inbound }),
    }).catch((error: unknown) => error);
    await until(() => emulator.requests.list().length === 2, 'the draft call');
    doomed.process.child.kill('SIGKILL');
    await doomed.process.exited;
    await pending;

    const after = await startInstance({ mode: 'postgres', emulator, schema });
    try {
      const listed = (await request(after.app).get('/threads').query({ status: 'drafting' })).body
        .items;
      const orphan = listed.find((t: { inbound: string }) => t.inbound === inbound);
      expect(orphan).toBeDefined();

      let thread = orphan;
      await until(async () => {
        thread = (await request(after.app).get(`/threads/${orphan.thread_id}`)).body;
        return thread.status === 'awaiting_review';
      }, 'the queue to finish the thread');
      expect(thread).toMatchObject({ inbound, draft: expect.any(String), revision: 1 });
    } finally {
      await after.close();
    }
  });

  test('when several instances start at once on a new schema, then the set-up runs safely for all', async () => {
    const fresh = freshSchema('setup');
    try {
      const instances = await Promise.all(
        Array.from({ length: 4 }, () =>
          startInstance({ mode: 'postgres', emulator, schema: fresh }),
        ),
      );
      const created = await request(instances[3]!.app)
        .post('/threads')
        .send({ inbound: BILLING_EMAIL });
      expect(created.status).toBe(201);
      await Promise.all(instances.map((instance) => instance.close()));
    } finally {
      await dropSchema(fresh);
    }
  });

  test("when a thread was paused by LangGraph's stock PostgresSaver (before the one-row checkpoints), then the service edits and sends it, and writes its next checkpoint in one row", async () => {
    const before = await startInstance({
      mode: 'postgres',
      emulator,
      schema,
      patches: { oneRowCheckpoints: false },
    });
    let thread_id: string;
    try {
      thread_id = (
        await request(before.app).post('/threads').send({ inbound: BILLING_EMAIL }).expect(201)
      ).body.thread_id;
    } finally {
      await before.close();
    }
    const instance = await startInstance({ mode: 'postgres', emulator, schema });
    const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 2 });
    try {
      const config = { configurable: { thread_id } };
      const stock = await new PostgresSaver(pool, undefined, { schema }).getTuple(config);
      const ours = await instance.persistence.checkpointer.getTuple(config);
      expect(ours?.checkpoint.channel_values).toEqual(stock?.checkpoint.channel_values);
      expect(ours?.checkpoint.channel_values).toMatchObject({
        inbound: BILLING_EMAIL,
        revision: 1,
      });

      await request(instance.app)
        .post(`/threads/${thread_id}/edit`)
        .send({ draft: 'Edited.' })
        .expect(200);
      const edited = await pool.query(
        `SELECT checkpoint -> 'channel_values' AS inline FROM "${schema}".checkpoints
         WHERE thread_id = $1 ORDER BY checkpoint_id DESC LIMIT 1`,
        [thread_id],
      );
      expect(Object.keys(edited.rows[0].inline)).toEqual(
        expect.arrayContaining(['inbound', 'reply', 'revision', 'classification']),
      );
      const approved = await request(instance.app).post(`/threads/${thread_id}/approve`);
      expect(approved.body).toMatchObject({ status: 'sent', draft: 'Edited.' });
      expect(
        (await instance.persistence.checkpointer.getTuple(config))?.checkpoint.channel_values,
      ).toMatchObject({ inbound: BILLING_EMAIL, reply: 'Edited.', revision: 2 });
    } finally {
      await pool.end();
      await instance.close();
    }
  });
});
