import { recordSchema } from '@repo/jest-preset/schema-ledger.mjs';
import { pino } from 'pino';
import { openPools } from '../src/index.js';

const TEST_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

describe('PreparingClient, in the pools openPools opens', () => {
  const pools = openPools({
    connectionString: TEST_DATABASE_URL,
    query: { max: 1 },
    locks: { max: 1 },
    logger: pino({ level: 'silent' }),
  });

  const schema = `preparing_${process.pid}`;
  beforeAll(async () => {
    recordSchema(schema);
    await pools.pool.query(`CREATE SCHEMA "${schema}"`);
  });

  afterAll(async () => {
    await pools.pool.query(`DROP SCHEMA "${schema}" CASCADE`);
    await pools.end();
  });

  /** The statements the pool's one connection has prepared (server side). */
  const prepared = async () =>
    (
      await pools.pool.query<{ statement: string }>(
        'SELECT statement FROM pg_prepared_statements ORDER BY prepare_time',
      )
    ).rows.map((row) => row.statement);

  test('when a statement with values runs twice on one connection, then the connection prepared it once and both runs answer as an unprepared one would', async () => {
    const text = 'SELECT $1::int + 1 AS next, $2::text AS label';
    const first = await pools.pool.query(text, [1, 'a']);
    const second = await pools.pool.query(text, [41, 'b']);
    expect(first.rows).toEqual([{ next: 2, label: 'a' }]);
    expect(second.rows).toEqual([{ next: 42, label: 'b' }]);
    expect((await prepared()).filter((statement) => statement === text)).toHaveLength(1);
  });

  test('when a statement has no values, then it runs unprepared', async () => {
    const text = "SELECT 'no values' AS said";
    expect((await pools.pool.query(text)).rows).toEqual([{ said: 'no values' }]);
    expect(await prepared()).not.toContain(text);
  });

  test('when a prepared statement fails, then the error is PostgreSQL’s, and the statement runs again on the connection the pool opens in place of that one', async () => {
    const table = `"${schema}".probe`;
    await pools.pool.query(`CREATE TABLE ${table} (id int PRIMARY KEY)`);
    const insert = `INSERT INTO ${table} (id) VALUES ($1)`;
    await pools.pool.query(insert, [1]);
    expect(await prepared()).toContain(insert);
    // pg-pool ends a connection whose query failed: its statements go with it.
    await expect(pools.pool.query(insert, [1])).rejects.toMatchObject({ code: '23505' });
    expect(await prepared()).not.toContain(insert);
    await pools.pool.query(insert, [2]);
    expect(await prepared()).toContain(insert);
    const { rows } = await pools.pool.query(`SELECT id FROM ${table} ORDER BY id`);
    expect(rows).toEqual([{ id: 1 }, { id: 2 }]);
  });
});

describe('openPools with preparedStatements: false (PG_PREPARED_STATEMENTS=false)', () => {
  test('when a statement with values runs, then the connection prepares nothing', async () => {
    const pools = openPools({
      connectionString: TEST_DATABASE_URL,
      query: { max: 1 },
      locks: { max: 1 },
      logger: pino({ level: 'silent' }),
      preparedStatements: false,
    });
    try {
      const text = 'SELECT $1::int * 2 AS twice';
      expect((await pools.pool.query(text, [21])).rows).toEqual([{ twice: 42 }]);
      const { rows } = await pools.pool.query(
        'SELECT count(*)::int AS n FROM pg_prepared_statements',
      );
      expect(rows).toEqual([{ n: 0 }]);
    } finally {
      await pools.end();
    }
  });
});
