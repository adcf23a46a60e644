import pg from 'pg';
import PgBoss from 'pg-boss';
import { startEmulator, type Emulator } from '@repo/llm-emulator';
import request from 'supertest';
import { queueSchema, table } from '../src/db/tables.js';
import {
  dropSchema,
  freshSchema,
  postgresTestsEnabled,
  TEST_DATABASE_URL,
  until,
} from './support/database.js';
import { BILLING_EMAIL } from './support/emails.js';
import { startInstance, type Instance } from './support/harness.js';

const DAY_MS = 86_400_000;
/** Every table of the schema a thread has rows in (the queue's jobs are counted apart). */
const THREAD_TABLES = [
  'email_threads',
  'email_deliveries',
  'email_thread_history',
  'checkpoints',
  'checkpoint_blobs',
  'checkpoint_writes',
];
const RETENTION_DAYS = 2;
const enabled = await postgresTestsEnabled();

/** A clock the test moves by hand. */
class ManualClock {
  constructor(public now = new Date('2030-01-01T00:00:00Z')) {}
  readonly read = () => this.now;
  advanceDays(days: number) {
    this.now = new Date(this.now.getTime() + days * DAY_MS);
  }
}

(enabled ? describe : describe.skip)('retention of finished threads (postgres)', () => {
  const schema = freshSchema('retention');
  const clock = new ManualClock();
  let emulator: Emulator;
  let instance: Instance;
  let db: pg.Client;

  beforeAll(async () => {
    emulator = await startEmulator();
    instance = await startInstance({
      mode: 'postgres',
      emulator,
      schema,
      clock: clock.read,
      // One thread per transaction: the pass has to go batch after batch.
      retention: { days: RETENTION_DAYS, batchSize: 1, pauseMs: 0 },
    });
    db = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await instance?.close();
    await emulator?.close();
    await dropSchema(schema);
  });

  const create = async () => {
    const res = await request(instance.app)
      .post('/threads')
      .send({ inbound: BILLING_EMAIL, from: 'ann@example.com' });
    expect(res.status).toBe(201);
    return res.body.thread_id as string;
  };
  const approveAndDeliver = async (id: string) => {
    expect((await request(instance.app).post(`/threads/${id}/approve`)).status).toBe(200);
    await until(
      async () =>
        (await request(instance.app).get(`/threads/${id}`)).body.delivery?.status === 'delivered',
      `delivery of ${id}`,
    );
  };

  /** Rows a thread has in each of the tables it lives in. */
  async function rowsOf(id: string): Promise<Record<string, number>> {
    const count = async (sql: string) =>
      Number((await db.query<{ n: string }>(sql, [id])).rows[0]!.n);
    const queue = queueSchema(schema);
    const rows: Record<string, number> = {};
    for (const name of THREAD_TABLES)
      rows[name] = await count(
        `SELECT count(*) AS n FROM ${table(schema, name)} WHERE thread_id = $1`,
      );
    rows['queue_jobs'] = await count(
      `SELECT (SELECT count(*) FROM ${table(queue, 'job')} WHERE data->>'thread_id' = $1)
            + (SELECT count(*) FROM ${table(queue, 'archive')} WHERE data->>'thread_id' = $1) AS n`,
    );
    return rows;
  }

  test('when a pass runs with an injected clock, then only finished threads past the limit disappear, from every table', async () => {
    // Day 0: one thread sent and delivered, one rejected, one left awaiting review.
    const delivered = await create();
    await approveAndDeliver(delivered);
    const rejected = await create();
    expect((await request(instance.app).post(`/threads/${rejected}/reject`)).status).toBe(200);
    const awaiting = await create();
    // Day 1.5: one more delivered, young enough to stay.
    clock.advanceDays(1.5);
    const recent = await create();
    await approveAndDeliver(recent);
    // Checkpoints are one row each (no blobs); a thread paused by the stock saver before that
    // patch has blob rows too, which go with it.
    await db.query(
      `INSERT INTO ${table(schema, 'checkpoint_blobs')} (thread_id, checkpoint_ns, channel, version, type, blob)
       VALUES ($1, '', 'inbound', '1', 'json', '"Hello"')`,
      [delivered],
    );
    const deliveredBefore = await rowsOf(delivered);
    expect(deliveredBefore['email_deliveries']).toBe(1);
    expect(deliveredBefore['email_thread_history']).toBeGreaterThan(0);
    expect(deliveredBefore.checkpoints).toBeGreaterThan(0);
    expect(deliveredBefore.checkpoint_writes).toBeGreaterThan(0);
    expect(deliveredBefore.checkpoint_blobs).toBeGreaterThan(0);
    expect(deliveredBefore.queue_jobs).toBeGreaterThan(0);
    const awaitingBefore = await rowsOf(awaiting);
    const recentBefore = await rowsOf(recent);

    // Day 3: the day-0 threads are past the 2 days, the day-1.5 one is not.
    clock.advanceDays(1.5);
    const deleted = await instance.retention.runOnce();

    expect(deleted).toBe(2);
    const gone = Object.fromEntries(Object.keys(deliveredBefore).map((name) => [name, 0]));
    expect(await rowsOf(delivered)).toEqual(gone);
    expect(await rowsOf(rejected)).toEqual(gone);
    expect(await rowsOf(awaiting)).toEqual(awaitingBefore);
    expect(await rowsOf(recent)).toEqual(recentBefore);
    expect((await request(instance.app).get(`/threads/${delivered}`)).status).toBe(404);
    expect((await request(instance.app).get(`/threads/${awaiting}`)).body.status).toBe(
      'awaiting_review',
    );
  });

  test('when a thread awaits review far past the limit, then it stays', async () => {
    const awaiting = await create();
    clock.advanceDays(365);

    await instance.retention.runOnce();

    expect((await rowsOf(awaiting)).email_threads).toBe(1);
    const res = await request(instance.app).get(`/threads/${awaiting}`);
    expect(res.body.status).toBe('awaiting_review');
  });

  test('when two instances start the retention job, then the queue holds one schedule and a singleton queue for it', async () => {
    const other = await startInstance({
      mode: 'postgres',
      emulator,
      schema,
      retention: { days: RETENTION_DAYS },
    });
    try {
      await Promise.all([instance.retention.start(), other.retention.start()]);
      const boss = new PgBoss({
        connectionString: TEST_DATABASE_URL,
        schema: queueSchema(schema),
        supervise: false,
        schedule: false,
      });
      await boss.start();
      try {
        const schedules = await boss.getSchedules();
        expect(schedules.map((s) => [s.name, s.cron])).toEqual([
          ['thread-retention', '17 * * * *'],
        ]);
        expect((await boss.getQueue('thread-retention'))?.policy).toBe('singleton');
      } finally {
        await boss.stop({ graceful: false, wait: true });
      }
    } finally {
      await other.close();
    }
  });
});
