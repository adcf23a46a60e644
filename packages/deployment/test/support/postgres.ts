import { derivedSchemas, recordSchema } from '@repo/jest-preset/schema-ledger.mjs';
import pg from 'pg';

export const TEST_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * A pool on the test database, or undefined when it is unreachable outside CI (with a loud warning).
 * In CI (CI=true) an unreachable database fails the test run instead.
 */
export async function connectOrSkip(what: string): Promise<pg.Pool | undefined> {
  const pool = new pg.Pool({
    connectionString: TEST_DATABASE_URL,
    max: 2,
    connectionTimeoutMillis: 3_000,
  });
  try {
    await pool.query('SELECT 1');
    return pool;
  } catch (error) {
    await pool.end();
    if (process.env.CI === 'true')
      throw new Error(`PostgreSQL is required in CI (${TEST_DATABASE_URL}): ${String(error)}`);
    console.warn(`!!! PostgreSQL unreachable at ${TEST_DATABASE_URL}: ${what} runs without it.`);
    return undefined;
  }
}

/** A schema name for one test; the run checks at its end that it (and its `_pgboss`) is gone. */
export function freshSchemaName(prefix: string): string {
  const schema = `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  recordSchema(schema);
  return schema;
}

/** Drops a schema a test gave email-review, and the `<schema>_pgboss` where its pg-boss queues lived. */
export async function dropTestSchema(pool: pg.Pool, schema: string): Promise<void> {
  for (const name of derivedSchemas(schema))
    await pool.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
}
