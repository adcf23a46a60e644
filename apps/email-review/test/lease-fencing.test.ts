import { startEmulator, type Emulator } from '@repo/llm-emulator';
import pg from 'pg';
import request from 'supertest';
import type { Thread } from '../src/threads/thread.js';
import type { ThreadStore } from '../src/threads/thread-store.js';
import {
  dropSchema,
  freshSchema,
  postgresTestsEnabled,
  TEST_DATABASE_URL,
} from './support/database.js';
import { BILLING_EMAIL } from './support/emails.js';
import { startInstance, type Instance } from './support/harness.js';

const withPostgres = await postgresTestsEnabled();
const describePg = withPostgres ? describe : describe.skip;

const eventTypes = (events: { type: string }[]) => events.map((event) => event.type);

/**
 * A holder that stalls past its lease's ttl (its process paused, its renewals late) finds the
 * thread taken by another change when it wakes. Here the takeover is made by hand, at the exact
 * moment: the lease row given to another owner, as the next holder's take does once it expired.
 */
describePg('a change whose lease passed to another holder (PostgreSQL)', () => {
  const schema = freshSchema('fence');
  let emulator: Emulator;
  let instance: Instance;
  let pool: pg.Pool;
  /** Called with each view the index is about to save / each thread it reads, inside the lease. */
  let beforeSave: (thread: Thread) => Promise<void> = async () => {};

  const takeOver = async (threadId: string) => {
    const taken = await pool.query(
      `UPDATE "${schema}".email_thread_leases SET owner = 'another-instance' WHERE thread_id = $1`,
      [threadId],
    );
    expect(taken.rowCount).toBe(1);
  };
  const giveBack = (threadId: string) =>
    pool.query(`DELETE FROM "${schema}".email_thread_leases WHERE thread_id = $1`, [threadId]);

  beforeAll(async () => {
    emulator = await startEmulator();
    pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 2 });
    instance = await startInstance({
      mode: 'postgres',
      emulator,
      schema,
      wrapThreads: (threads): ThreadStore => ({
        create: (thread, key, events) => threads.create(thread, key, events),
        list: (query) => threads.list(query),
        get: (threadId) => threads.get(threadId),
        save: async (thread, events) => {
          await beforeSave(thread);
          await threads.save(thread, events);
        },
        saveDecision: (view, revision, events, client) =>
          threads.saveDecision(view, revision, events, client),
      }),
    });
  });
  afterEach(() => {
    beforeSave = async () => {};
  });
  afterAll(async () => {
    await instance?.close();
    await emulator?.close();
    await pool?.end();
    await dropSchema(schema);
  });

  test('when the lease passes on while a redraft’s model call fails, then the edit answers 409 thread_busy, not the model’s failure', async () => {
    const created = (await request(instance.app).post('/threads').send({ inbound: BILLING_EMAIL }))
      .body as Thread;
    beforeSave = async (thread) => {
      if (thread.status === 'failed') await takeOver(thread.thread_id);
    };
    emulator.faults.add({ provider: 'openai', kind: 'status', status: 500, count: 3 });

    const edit = await request(instance.app)
      .post(`/threads/${created.thread_id}/edit`)
      .send({ instructions: 'Shorter, please.' });

    expect(edit.status).toBe(409);
    expect(edit.body).toMatchObject({ code: 'thread_busy', thread_id: created.thread_id });
    beforeSave = async () => {};
    const history = await request(instance.app).get(`/threads/${created.thread_id}/history`);
    expect(eventTypes(history.body.events)).not.toContain('failed');
    await giveBack(created.thread_id);
  });
});
