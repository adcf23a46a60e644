import {
  context,
  INVALID_SPAN_CONTEXT,
  trace,
  type Span,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import pg from 'pg';
import { traceQueries, withTransaction } from '../src/index.js';

const TEST_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** The spans started through the API, by name and attributes: a provider of the test's own. */
function recordingProvider() {
  const started: Array<{ name: string; attributes: Record<string, unknown>; ended: boolean }> = [];
  const tracer = {
    startSpan(name: string, options?: { attributes?: Record<string, unknown> }) {
      const entry = { name, attributes: options?.attributes ?? {}, ended: false };
      started.push(entry);
      return {
        end: () => (entry.ended = true),
        setStatus: () => undefined,
        spanContext: () => INVALID_SPAN_CONTEXT,
      } as unknown as Span;
    },
  } as unknown as Tracer;
  const provider = { getTracer: () => tracer } as TracerProvider;
  return { provider, started };
}

describe('withTransaction and traceQueries', () => {
  const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 2 });
  const table = `pgkit_tx_${process.pid}`;

  beforeAll(async () => {
    await pool.query(`CREATE TABLE IF NOT EXISTS ${table} (n int)`);
  });
  afterAll(async () => {
    await pool.query(`DROP TABLE IF EXISTS ${table}`);
    await pool.end();
    trace.disable();
    context.disable();
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

  test('when queries run on a traced pool, then each is an ended span with its statement and not its values', async () => {
    const { provider, started } = recordingProvider();
    trace.setGlobalTracerProvider(provider);
    traceQueries(pool);

    await pool.query(`SELECT n FROM ${table} WHERE n = $1`, [12345]);
    await withTransaction(pool, (client) => client.query(`INSERT INTO ${table} VALUES ($1)`, [3]));

    const statements = started.map((span) => [
      span.name,
      span.attributes['db.query.text'],
      span.ended,
    ]);
    expect(statements).toEqual(
      expect.arrayContaining([
        ['SELECT', `SELECT n FROM ${table} WHERE n = $1`, true],
        ['BEGIN', 'BEGIN', true],
        ['INSERT', `INSERT INTO ${table} VALUES ($1)`, true],
        ['COMMIT', 'COMMIT', true],
      ]),
    );
    expect(JSON.stringify(started)).not.toContain('12345');
  });
});
