import { context, trace } from '@opentelemetry/api';
import { startOtlpReceiver, startTracing, type Tracing } from '@repo/http-kit';
import pg from 'pg';
import { withTransaction } from '../src/index.js';

const TEST_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

describe('withTransaction, and the spans of its queries', () => {
  const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 2 });
  const table = `pgkit_tx_${process.pid}`;

  beforeAll(async () => {
    await pool.query(`CREATE TABLE IF NOT EXISTS ${table} (n int)`);
  });
  afterAll(async () => {
    await pool.query(`DROP TABLE IF EXISTS ${table}`);
    await pool.end();
  });

  test('when the work returns, then its writes are committed', async () => {
    await withTransaction(pool, (client) => client.query(`INSERT INTO ${table} VALUES (1)`));
    const { rows } = await pool.query(`SELECT count(*)::int AS n FROM ${table} WHERE n = 1`);
    expect(rows[0].n).toBe(1);
  });

  test('when the work throws, then its writes are rolled back and the error is rethrown', async () => {
    await expect(
      withTransaction(pool, async (client) => {
        await client.query(`INSERT INTO ${table} VALUES (2)`);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const { rows } = await pool.query(`SELECT count(*)::int AS n FROM ${table} WHERE n = 2`);
    expect(rows[0].n).toBe(0);
  });

  describe('with tracing on (the pg instrumentation, patching this pg module)', () => {
    let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
    let tracing: Tracing;
    // What the instrumentation wraps: Client#query and #connect, and pg-pool's Pool#connect.
    const stockQuery = pg.Client.prototype.query;
    const poolPrototype = (Object.getPrototypeOf(pg.Pool) as typeof pg.Pool).prototype;
    const stockConnect = poolPrototype.connect;
    beforeAll(async () => {
      receiver = await startOtlpReceiver();
      tracing = await startTracing({ serviceName: 'pg-kit', endpoint: receiver.url }, { pg });
    });
    afterAll(async () => {
      await tracing?.shutdown();
      await receiver?.close();
    });

    test('when queries run inside a trace, then each is a span of it with its statement and not its values', async () => {
      const tracer = trace.getTracer('test');
      const parent = tracer.startSpan('work');
      await context.with(trace.setSpan(context.active(), parent), async () => {
        await pool.query(`SELECT n FROM ${table} WHERE n = $1`, [12345]);
        await withTransaction(pool, (client) =>
          client.query(`INSERT INTO ${table} VALUES ($1)`, [3]),
        );
      });
      parent.end();
      await tracing.flush();

      const queries = receiver.spans.filter(
        (span) =>
          span.parentSpanId === parent.spanContext().spanId &&
          span.attributes['db.system.name'] === 'postgresql',
      );
      expect(queries.map((span) => span.attributes['db.query.text'])).toEqual(
        expect.arrayContaining([
          `SELECT n FROM ${table} WHERE n = $1`,
          'BEGIN',
          `INSERT INTO ${table} VALUES ($1)`,
          'COMMIT',
        ]),
      );
      expect(JSON.stringify(receiver.spans)).not.toContain('12345');
    });

    test('when a query runs outside any trace (a poll, a sweep), then it makes no span', async () => {
      const before = receiver.spans.length;
      await pool.query(`SELECT n FROM ${table} WHERE n = $1`, [54321]);
      await tracing.flush();

      const queries = receiver.spans
        .slice(before)
        .filter((span) => span.attributes['db.system.name'] === 'postgresql');
      expect(queries).toEqual([]);
    });

    test('when tracing shuts down, then pg is as it was', async () => {
      expect(pg.Client.prototype.query).not.toBe(stockQuery);
      await tracing.shutdown();
      expect(pg.Client.prototype.query).toBe(stockQuery);
      expect(poolPrototype.connect).toBe(stockConnect);
    });
  });
});
