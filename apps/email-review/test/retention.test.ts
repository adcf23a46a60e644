import { createLogger } from '@repo/http-kit';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { startEmulator, type Emulator } from '@repo/llm-emulator';
import request from 'supertest';
import { createLogTransport, type MailTransport } from '../src/delivery/mail-transport.js';
import { createSmtpTransport } from '../src/delivery/smtp-transport.js';
import { queueSchema, table } from '../src/db/tables.js';
import {
  dropSchema,
  freshSchema,
  postgresTestsEnabled,
  TEST_DATABASE_URL,
  until,
} from './support/database.js';
import { BILLING_EMAIL } from './support/emails.js';
import { ALWAYS_500 } from './support/emulator-faults.js';
import { startInstance, type Instance } from './support/harness.js';
import { SmtpSink } from './support/smtp-sink.js';

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

/** Rows a thread has in each of the tables it lives in, and its queue jobs (live and archived). */
async function rowsOf(db: pg.Client, schema: string, id: string): Promise<Record<string, number>> {
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

/** The rows `before` listed, all gone. */
const noRows = (before: Record<string, number>) =>
  Object.fromEntries(Object.keys(before).map((name) => [name, 0]));

/** A new thread awaiting review, its reply to go to `from` (none: no recipient). */
async function createThread(instance: Instance, from?: string): Promise<string> {
  const res = await request(instance.app)
    .post('/threads')
    .send({ inbound: BILLING_EMAIL, ...(from ? { from } : {}) });
  expect(res.status).toBe(201);
  return res.body.thread_id as string;
}

/** Approves the thread and waits until its delivery is `status`. */
async function approveUntil(instance: Instance, id: string, status: string): Promise<void> {
  expect((await request(instance.app).post(`/threads/${id}/approve`)).status).toBe(200);
  await until(
    async () =>
      (await request(instance.app).get(`/threads/${id}`)).body.delivery?.status === status,
    `delivery of ${id} ${status}`,
  );
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

  const create = () => createThread(instance, 'ann@example.com');
  const approveAndDeliver = (id: string) => approveUntil(instance, id, 'delivered');
  const rowsOfThread = (id: string) => rowsOf(db, schema, id);

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
    const deliveredBefore = await rowsOfThread(delivered);
    expect(deliveredBefore['email_deliveries']).toBe(1);
    expect(deliveredBefore['email_thread_history']).toBeGreaterThan(0);
    expect(deliveredBefore.checkpoints).toBeGreaterThan(0);
    expect(deliveredBefore.checkpoint_writes).toBeGreaterThan(0);
    expect(deliveredBefore.checkpoint_blobs).toBeGreaterThan(0);
    expect(deliveredBefore.queue_jobs).toBeGreaterThan(0);
    const awaitingBefore = await rowsOfThread(awaiting);
    const recentBefore = await rowsOfThread(recent);

    // Day 3: the day-0 threads are past the 2 days, the day-1.5 one is not.
    clock.advanceDays(1.5);
    const deleted = await instance.retention.runOnce();

    expect(deleted).toBe(2);
    expect(await rowsOfThread(delivered)).toEqual(noRows(deliveredBefore));
    expect(await rowsOfThread(rejected)).toEqual(noRows(deliveredBefore));
    expect(await rowsOfThread(awaiting)).toEqual(awaitingBefore);
    expect(await rowsOfThread(recent)).toEqual(recentBefore);
    expect((await request(instance.app).get(`/threads/${delivered}`)).status).toBe(404);
    expect((await request(instance.app).get(`/threads/${awaiting}`)).body.status).toBe(
      'awaiting_review',
    );
  });

  test('when a thread awaits review far past the limit, then it stays', async () => {
    const awaiting = await create();
    clock.advanceDays(365);

    await instance.retention.runOnce();

    expect((await rowsOfThread(awaiting)).email_threads).toBe(1);
    const res = await request(instance.app).get(`/threads/${awaiting}`);
    expect(res.body.status).toBe('awaiting_review');
  });

  test('when no unsent period is set, then a thread whose reply had no recipient stays 30 days', async () => {
    const noRecipient = await createThread(instance);
    await approveUntil(instance, noRecipient, 'no_recipient');
    const before = await rowsOfThread(noRecipient);

    clock.advanceDays(29);
    await instance.retention.runOnce();
    const after29Days = await rowsOfThread(noRecipient);
    clock.advanceDays(2);
    await instance.retention.runOnce();

    expect(after29Days).toEqual(before);
    expect(await rowsOfThread(noRecipient)).toEqual(noRows(before));
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

/**
 * How a reply ended decides when its thread goes: delivered or logged (no SMTP_URL) after
 * THREAD_RETENTION_DAYS; not sent (the delivery failed for good, there was no recipient, or the
 * draft itself failed), which a reviewer may still redeliver or retry, after
 * THREAD_RETENTION_UNSENT_DAYS.
 */
(enabled ? describe : describe.skip)('retention by how the reply ended (postgres)', () => {
  const UNSENT_DAYS = 10;
  const REFUSED = 'nobody@example.com';
  const schema = freshSchema('retention_ends');
  const clock = new ManualClock();
  let emulator: Emulator;
  let sink: SmtpSink;
  let instance: Instance;
  let db: pg.Client;
  // The deployment's mail path, switched by the test: SMTP (the sink), or the log as without SMTP_URL.
  let smtpConfigured = true;

  beforeAll(async () => {
    emulator = await startEmulator();
    sink = await SmtpSink.start();
    sink.rule = (address) =>
      address === REFUSED ? { code: 550, message: 'No such user' } : undefined;
    const smtp = createSmtpTransport({ url: sink.url, timeoutMs: 2_000 });
    const log = createLogTransport(createLogger({ name: 'retention-test', level: 'silent' }));
    const transport: MailTransport = {
      get kind() {
        return smtpConfigured ? 'smtp' : 'log';
      },
      send: (message) => (smtpConfigured ? smtp : log).send(message),
      close: () => smtp.close(),
    };
    instance = await startInstance({
      mode: 'postgres',
      emulator,
      schema,
      clock: clock.read,
      mailTransport: transport,
      mailFrom: 'Support <support@shop.test>',
      retention: { days: RETENTION_DAYS, unsentDays: UNSENT_DAYS, batchSize: 2, pauseMs: 0 },
    });
    db = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await db.connect();
  });
  afterEach(() => {
    smtpConfigured = true;
    emulator.faults.clear();
  });
  afterAll(async () => {
    await db?.end();
    await instance?.close();
    await sink?.stop();
    await emulator?.close();
    await dropSchema(schema);
  });

  /** One thread in each state a reply can end in, and one awaiting review. */
  async function threadsOfEachEnd() {
    const delivered = await createThread(instance, 'ann@example.com');
    await approveUntil(instance, delivered, 'delivered');
    smtpConfigured = false;
    const logged = await createThread(instance, 'ann@example.com');
    await approveUntil(instance, logged, 'logged');
    smtpConfigured = true;
    const deliveryFailed = await createThread(instance, REFUSED);
    await approveUntil(instance, deliveryFailed, 'failed');
    const noRecipient = await createThread(instance);
    await approveUntil(instance, noRecipient, 'no_recipient');
    emulator.faults.add(ALWAYS_500);
    const draftFailed = await request(instance.app)
      .post('/threads')
      .send({ inbound: BILLING_EMAIL });
    expect(draftFailed.body).toMatchObject({ code: 'llm_unavailable' });
    emulator.faults.clear();
    const awaiting = await createThread(instance, 'ann@example.com');
    const threads = {
      delivered,
      logged,
      deliveryFailed,
      noRecipient,
      draftFailed: draftFailed.body.thread_id as string,
      awaiting,
    };
    const before: Record<string, Record<string, number>> = {};
    for (const [name, id] of Object.entries(threads)) before[name] = await rowsOf(db, schema, id);
    return { threads, before };
  }

  /** Each thread's rows now, by the names threadsOfEachEnd gave them. */
  async function rowsNow(threads: Record<string, string>) {
    const now: Record<string, Record<string, number>> = {};
    for (const [name, id] of Object.entries(threads)) now[name] = await rowsOf(db, schema, id);
    return now;
  }

  test('when a pass runs past THREAD_RETENTION_DAYS, then threads whose reply was delivered or logged go with every row, and those whose reply did not go out stay', async () => {
    const { threads, before } = await threadsOfEachEnd();
    expect(before.logged!.email_deliveries).toBe(1);
    expect(before.logged!.queue_jobs).toBeGreaterThan(0);
    expect(before.draftFailed!.email_threads).toBe(1);

    clock.advanceDays(RETENTION_DAYS + 1);
    const deleted = await instance.retention.runOnce();

    expect(deleted).toBe(2);
    expect(await rowsNow(threads)).toEqual({
      ...before,
      delivered: noRows(before.delivered!),
      logged: noRows(before.logged!),
    });
  });

  test('when a pass runs past THREAD_RETENTION_UNSENT_DAYS, then threads whose delivery failed, had no recipient or whose draft failed go with every row, and one awaiting review stays', async () => {
    const { threads, before } = await threadsOfEachEnd();

    clock.advanceDays(UNSENT_DAYS + 1);
    await instance.retention.runOnce();

    expect(await rowsNow(threads)).toEqual({
      ...Object.fromEntries(Object.entries(before).map(([name, rows]) => [name, noRows(rows)])),
      awaiting: before.awaiting,
    });
    expect((await request(instance.app).get(`/threads/${threads.awaiting}`)).body.status).toBe(
      'awaiting_review',
    );
  });
});
