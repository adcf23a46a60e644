import { recordSchema } from '@repo/jest-preset/schema-ledger.mjs';
import pg from 'pg';
import { PostgresOutbox } from '../src/outbox/postgres-outbox.js';
import { webhookTablesMigration } from '../src/outbox/webhook-tables.js';
import { testDeps } from './outbox-support.js';

const DATABASE_URL = process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const DAY_MS = 86_400_000;
/** The endpoint the outboxes below are configured with (its id is its name; no request is made to it). */
const CONFIGURED = { url: 'https://hooks.example.com/crm', secret: 'whsec_dGVzdA==', name: 'crm' };

describe('PostgreSQL outbox retention (WEBHOOK_RETENTION_DAYS)', () => {
  const schema = `webhooks_ret_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const table = `"${schema}".webhook_deliveries`;
  let pool: pg.Pool;
  const outboxes: PostgresOutbox[] = [];

  /** An outbox on the schema, with these endpoints, keeping settled deliveries a week. */
  const outbox = (endpoints: Array<typeof CONFIGURED>, sweepMs = 60_000) => {
    const created = new PostgresOutbox({
      ...testDeps(endpoints, { retentionMs: 7 * DAY_MS }),
      pool,
      schema,
      sweepMs,
    });
    outboxes.push(created);
    return created;
  };

  /** `count` deliveries of `endpoint`, `status`, last changed `ageDays` ago; answers their ids' prefix. */
  async function insert(count: number, endpoint: string, status: string, ageDays: number) {
    const prefix = `msg_${status}_${endpoint}_${ageDays}_`;
    await pool.query(
      `INSERT INTO ${table} (id, endpoint, type, subject, body, status, created_at, updated_at)
       SELECT $1 || n, $2, 'thread.updated', 'thr_' || n, '{}', $3,
              now() - $4 * interval '1 day', now() - $4 * interval '1 day'
       FROM generate_series(1, $5) AS n`,
      [prefix, endpoint, status, ageDays, count],
    );
    return prefix;
  }
  const left = async (prefix: string) =>
    Number(
      (
        await pool.query<{ n: string }>(
          `SELECT count(*) AS n FROM ${table} WHERE id LIKE $1 || '%'`,
          [prefix],
        )
      ).rows[0]!.n,
    );

  beforeAll(async () => {
    recordSchema(schema);
    pool = new pg.Pool({ connectionString: DATABASE_URL, max: 4 });
    await pool.query(`CREATE SCHEMA "${schema}"`);
    await pool.query(webhookTablesMigration(schema));
  });
  afterEach(async () => {
    for (const closing of outboxes.splice(0)) await closing.close();
    await pool.query(`TRUNCATE ${table}`);
  });
  afterAll(async () => {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  });

  it('when more settled deliveries are past the retention than one statement deletes, then one sweep deletes them all and keeps the rest', async () => {
    const crm = outbox([CONFIGURED]);
    const id = CONFIGURED.name;
    const aged = await insert(1_500, id, 'delivered', 8);
    const agedFailed = await insert(1_200, id, 'failed', 8);
    const recent = await insert(20, id, 'delivered', 6);
    const pending = await insert(20, id, 'pending', 8);

    const deleted = await crm.prune();

    expect(deleted).toBe(2_700);
    expect([await left(aged), await left(agedFailed)]).toEqual([0, 0]);
    expect([await left(recent), await left(pending)]).toEqual([20, 20]);
  });

  it('when an endpoint is no longer configured, then its pending deliveries untouched for the retention are deleted; a configured endpoint keeps its own', async () => {
    const crm = outbox([CONFIGURED]);
    const configured = CONFIGURED.name;
    const removedAged = await insert(30, 'removed', 'pending', 8);
    const removedRecent = await insert(30, 'removed', 'pending', 1);
    const configuredAged = await insert(30, configured, 'pending', 8);

    await crm.prune();

    expect(await left(removedAged)).toBe(0);
    expect([await left(removedRecent), await left(configuredAged)]).toEqual([30, 30]);
  });

  it('when no endpoint is configured any more, then the sweep still runs and deletes what is past the retention', async () => {
    const aged = await insert(50, 'removed', 'delivered', 8);
    const pending = await insert(50, 'removed', 'pending', 8);
    const recent = await insert(50, 'removed', 'delivered', 1);
    const none = outbox([], 50);

    await none.start();
    const deadline = Date.now() + 10_000;
    while ((await left(aged)) + (await left(pending)) > 0 && Date.now() < deadline)
      await new Promise((done) => setTimeout(done, 50));

    expect([await left(aged), await left(pending), await left(recent)]).toEqual([0, 0, 50]);
  });
});
