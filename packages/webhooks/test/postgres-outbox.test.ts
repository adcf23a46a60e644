import { createLogger } from '@repo/http-kit';
import { recordSchema } from '@repo/jest-preset/schema-ledger.mjs';
import pg from 'pg';
import { PostgresOutbox } from '../src/outbox/postgres-outbox.js';
import { webhookTablesMigration } from '../src/outbox/webhook-tables.js';
import { WebhookReceiver } from '../src/receiver/webhook-receiver.js';
import { testDeps } from './outbox-support.js';

const DATABASE_URL = process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

describe('PostgreSQL outbox, two instances on one schema', () => {
  const schema = `webhooks_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  let pool: pg.Pool;
  let receiver: WebhookReceiver;
  const outboxes: PostgresOutbox[] = [];

  beforeAll(async () => {
    recordSchema(schema);
    pool = new pg.Pool({ connectionString: DATABASE_URL, max: 10 });
    await pool.query(`CREATE SCHEMA "${schema}"`);
    await pool.query(webhookTablesMigration(schema));
    receiver = await WebhookReceiver.start();
    for (let i = 0; i < 2; i += 1) {
      const outbox = new PostgresOutbox({
        ...testDeps([{ url: receiver.url, secret: receiver.secret, name: 'crm' }]),
        pool,
        schema,
        pollMs: 50,
        sweepMs: 1_000,
      });
      outboxes.push(outbox);
    }
    for (const outbox of outboxes) await outbox.start();
  });

  afterAll(async () => {
    for (const outbox of outboxes) await outbox.close();
    await receiver.close();
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  });

  it('when events of three subjects are committed through both instances, then each arrives once, in order per subject', async () => {
    receiver.script = [500, 503];
    const subjects = ['thr_a', 'thr_b', 'thr_c'];
    for (let n = 0; n < 4; n += 1) {
      for (const [i, subject] of subjects.entries()) {
        const client = await pool.connect();
        await client.query('BEGIN');
        await outboxes[(n + i) % 2]!.publish(
          [{ type: 'thread.updated', subject, data: { subject, n } }],
          client,
        );
        await client.query('COMMIT');
        client.release();
      }
    }
    await receiver.until(() => receiver.received.length >= 12, 30_000);
    await new Promise((done) => setTimeout(done, 500));
    expect(receiver.received).toHaveLength(12);
    expect(new Set(receiver.received.map((hook) => hook.id)).size).toBe(12);
    for (const subject of subjects) {
      const order = receiver.received
        .filter((hook) => hook.data['subject'] === subject)
        .map((hook) => hook.data['n']);
      expect(order).toEqual([0, 1, 2, 3]);
    }
    expect(receiver.rejected).toBe(0);
  });

  it('when one change publishes four events of a subject and the first attempt gets 500, then all four arrive once, in order, the first on its second attempt', async () => {
    receiver.script = [500];
    const client = await pool.connect();
    await client.query('BEGIN');
    await outboxes[0]!.publish(
      [0, 1, 2, 3].map((n) => ({ type: 'thread.updated', subject: 'thr_line', data: { line: n } })),
      client,
    );
    await client.query('COMMIT');
    client.release();
    const ofLine = () => receiver.received.filter((hook) => hook.data['line'] !== undefined);
    await receiver.until(() => ofLine().length >= 4, 30_000);
    await new Promise((done) => setTimeout(done, 500));
    expect(ofLine().map((hook) => hook.data['line'])).toEqual([0, 1, 2, 3]);
    expect(ofLine().map((hook) => hook.attempt)).toEqual([2, 1, 1, 1]);
  });

  it('when the transaction that published rolls back, then nothing is sent', async () => {
    const before = receiver.requests.length;
    const client = await pool.connect();
    await client.query('BEGIN');
    await outboxes[0]!.publish([{ type: 'thread.updated', subject: 'thr_x', data: {} }], client);
    await client.query('ROLLBACK');
    client.release();
    await new Promise((done) => setTimeout(done, 1_000));
    expect(receiver.requests.length).toBe(before);
    expect(await outboxes[0]!.list({ limit: 100 })).toHaveLength(16);
  });

  it('when a delivery fails with 410, then it is listed as failed, and a retry delivers it', async () => {
    receiver.script = [410];
    await outboxes[1]!.publish([{ type: 'thread.rejected', subject: 'thr_r', data: { r: 1 } }]);
    const deadline = Date.now() + 10_000;
    let failed = await outboxes[0]!.list({ status: 'failed', limit: 10 });
    while (failed.length === 0 && Date.now() < deadline) {
      await new Promise((done) => setTimeout(done, 50));
      failed = await outboxes[0]!.list({ status: 'failed', limit: 10 });
    }
    expect(failed).toEqual([
      expect.objectContaining({ type: 'thread.rejected', attempts: 1, last_status: 410 }),
    ]);
    await outboxes[0]!.retry(failed[0]!.id);
    await receiver.until(() => receiver.received.some((hook) => hook.id === failed[0]!.id));
  });

  it('when settled deliveries are older than the retention, then the sweep deletes them and keeps the rest', async () => {
    const settled = await outboxes[0]!.list({ status: 'delivered', limit: 100 });
    expect(settled.length).toBeGreaterThan(2);
    const [aged, kept] = [settled[0]!, settled[1]!];
    const before = (await outboxes[0]!.list({ limit: 1000 })).length;
    await pool.query(
      `UPDATE "${schema}".webhook_deliveries SET updated_at = now() - interval '2 days' WHERE id = $1`,
      [aged.id],
    );
    const deadline = Date.now() + 10_000;
    let ids = (await outboxes[0]!.list({ limit: 1000 })).map((d) => d.id);
    while (ids.includes(aged.id) && Date.now() < deadline) {
      await new Promise((done) => setTimeout(done, 100));
      ids = (await outboxes[0]!.list({ limit: 1000 })).map((d) => d.id);
    }
    expect(ids).not.toContain(aged.id);
    expect(ids).toContain(kept.id);
    expect(ids).toHaveLength(before - 1);
  });

  it('when a change publishes its events in its own statement, then they are sent only if the statement made the change', async () => {
    await pool.query(`CREATE TABLE "${schema}".changes (id text PRIMARY KEY)`);
    const outbox = outboxes[1]!;
    const change = (id: string) =>
      pool.query(
        `WITH written AS (INSERT INTO "${schema}".changes (id) VALUES ($1)
           ON CONFLICT (id) DO NOTHING RETURNING id),
         ${outbox.inStatement.ctes('written', 2)}
         SELECT id FROM written`,
        [
          id,
          ...outbox.inStatement.params([{ type: 'thread.updated', subject: id, data: { id } }])!,
        ],
      );
    const before = (await outbox.list({ limit: 1000 })).length;
    expect((await change('chg_1')).rowCount).toBe(1);
    // The same change again writes nothing: no delivery.
    expect((await change('chg_1')).rowCount).toBe(0);
    await receiver.until(() => receiver.received.some((hook) => hook.data['id'] === 'chg_1'));
    await new Promise((done) => setTimeout(done, 500));
    expect(receiver.received.filter((hook) => hook.data['id'] === 'chg_1')).toHaveLength(1);
    expect(await outbox.list({ limit: 1000 })).toHaveLength(before + 1);
  });

  it('when a batch dies holding its lease, then the rows are sent once its lease has run out, once', async () => {
    const client = await pool.connect();
    await client.query('BEGIN');
    await outboxes[0]!.publish(
      [{ type: 'thread.updated', subject: 'thr_dead', data: { dead: 1 } }],
      client,
    );
    // As a batch whose process was killed mid-attempt leaves it: leased, never settled.
    const leased = await client.query<{ lease_until: Date }>(
      `UPDATE "${schema}".webhook_deliveries SET lease_until = now() + interval '1 second',
         leased_by = 'lease_dead' WHERE subject = 'thr_dead' RETURNING lease_until`,
    );
    await client.query('COMMIT');
    client.release();
    await receiver.until(() => receiver.received.some((hook) => hook.data['dead'] === 1));
    await new Promise((done) => setTimeout(done, 500));
    expect(receiver.received.filter((hook) => hook.data['dead'] === 1)).toHaveLength(1);
    // The batch settles its rows after the receiver's answer: wait for that, not a fixed time.
    const settled = async () =>
      (
        await pool.query<{ delivered_at: Date | null; attempts: number; leased_by: string | null }>(
          `SELECT delivered_at, attempts, leased_by FROM "${schema}".webhook_deliveries
           WHERE subject = 'thr_dead'`,
        )
      ).rows[0]!;
    const deadline = Date.now() + 10_000;
    let row = await settled();
    while (!row.delivered_at && Date.now() < deadline) {
      await new Promise((done) => setTimeout(done, 50));
      row = await settled();
    }
    expect(row.attempts).toBe(1);
    expect(row.leased_by).toBeNull();
    expect(row.delivered_at!.getTime()).toBeGreaterThanOrEqual(
      leased.rows[0]!.lease_until.getTime(),
    );
  });
  it('when a failed delivery is retried while a later one of its line waits for its own retry, then the line still arrives in order', async () => {
    const client = await pool.connect();
    await client.query('BEGIN');
    await outboxes[0]!.publish(
      ['a', 'b', 'c'].map((step) => ({
        type: 'thread.updated',
        subject: 'thr_mixed',
        data: { step },
      })),
      client,
    );
    // a failed for good; b failed once and waits 1.5 s for its retry; c is new, behind b.
    await client.query(
      `UPDATE "${schema}".webhook_deliveries SET status = 'failed', attempts = 1
         WHERE subject = 'thr_mixed' AND body LIKE '%"step":"a"%'`,
    );
    await client.query(
      `UPDATE "${schema}".webhook_deliveries SET attempts = 1,
         next_attempt_at = now() + interval '1.5 seconds'
         WHERE subject = 'thr_mixed' AND body LIKE '%"step":"b"%'`,
    );
    await client.query('COMMIT');
    client.release();
    const [failed] = (await outboxes[1]!.list({ status: 'failed', limit: 100 })).filter(
      (delivery) => delivery.subject === 'thr_mixed',
    );
    await outboxes[1]!.retry(failed!.id);
    const steps = () =>
      receiver.received
        .filter((hook) => hook.data['step'] !== undefined)
        .map((hook) => hook.data['step']);
    await receiver.until(() => steps().length >= 3, 15_000);
    expect(steps()).toEqual(['a', 'b', 'c']);
  });
});

describe('PostgreSQL outbox, an endpoint that hangs', () => {
  const schema = `webhooks_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  let pool: pg.Pool;
  let receiver: WebhookReceiver;
  let outbox: PostgresOutbox;

  beforeAll(async () => {
    recordSchema(schema);
    // One connection: an attempt that held it would hold every other query of the service.
    pool = new pg.Pool({ connectionString: DATABASE_URL, max: 1 });
    await pool.query(`CREATE SCHEMA "${schema}"`);
    await pool.query(webhookTablesMigration(schema));
    receiver = await WebhookReceiver.start();
    outbox = new PostgresOutbox({
      ...testDeps([{ url: receiver.url, secret: receiver.secret, name: 'slow' }], {
        timeoutMs: 3_000,
      }),
      pool,
      schema,
      pollMs: 50,
    });
    await outbox.start();
  });

  afterAll(async () => {
    await outbox.close();
    await receiver.close();
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  });

  it('when an attempt hangs, then the outbox holds no database connection through it', async () => {
    receiver.script = ['hang'];
    await outbox.publish([{ type: 'thread.updated', subject: 'thr_hang', data: {} }]);
    await receiver.until(() => receiver.requests.length >= 1);
    // The pool's one connection answers while the attempt is still hanging: not attempted yet
    // as far as the table knows, and leased.
    const { rows } = await pool.query<{ attempts: number; leased_by: string | null }>(
      `SELECT attempts, leased_by FROM "${schema}".webhook_deliveries WHERE subject = 'thr_hang'`,
    );
    expect(rows).toEqual([{ attempts: 0, leased_by: expect.stringMatching(/^lease_/) }]);
    // After the timeout it is retried, and delivered.
    await receiver.until(() => receiver.received.length >= 1, 15_000);
    expect(receiver.requests).toHaveLength(2);
  });
});

describe('PostgreSQL outbox, a database that cannot be reached', () => {
  it('when every batch fails, then the worker logs it once and looks less and less often', async () => {
    const lines: Array<{ msg: string; level: number }> = [];
    const logger = createLogger({
      name: 'outbox-test',
      destination: { write: (line: string) => void lines.push(JSON.parse(line)) },
    });
    // Nothing listens on port 1: every look fails at once.
    const pool = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:1/none', max: 1 });
    pool.on('error', () => undefined);
    const outbox = new PostgresOutbox({
      ...testDeps([{ url: 'http://127.0.0.1:9/hook', secret: 'whsec_dGVzdA==', name: 'away' }]),
      logger,
      pool,
      schema: 'away',
      pollMs: 20,
    });
    let looks = 0;
    const query = pool.query.bind(pool);
    pool.query = ((...args: Parameters<typeof pool.query>) => {
      looks += 1;
      return query(...args);
    }) as typeof pool.query;
    await outbox.start();
    await new Promise((done) => setTimeout(done, 1_500));
    await outbox.close();
    await pool.end();
    const failed = lines.filter((line) => line.msg === 'webhook batch failed; taken again');
    expect(failed).toHaveLength(1);
    // Every 20 ms for 1.5 s would be some 70 looks; doubling from 40 ms, about six.
    expect(looks).toBeGreaterThan(1);
    expect(looks).toBeLessThan(15);
  });
});
