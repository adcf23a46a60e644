import { randomBytes } from 'node:crypto';
import { recordSchema } from '@repo/jest-preset/schema-ledger.mjs';
import pg from 'pg';
import { queueSchema } from '../../src/db/tables.js';

export const TEST_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export type Mode = 'memory' | 'postgres';

async function databaseReachable(): Promise<boolean> {
  const client = new pg.Client({
    connectionString: TEST_DATABASE_URL,
    connectionTimeoutMillis: 3000,
  });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * The modes a suite runs in. PostgreSQL is always included under CI (so an unreachable database
 * fails the run); elsewhere an unreachable database skips those tests, loudly.
 */
export async function testModes(): Promise<Mode[]> {
  if (process.env.CI === 'true' || (await databaseReachable())) return ['memory', 'postgres'];
  console.warn(
    `\n*** PostgreSQL at ${TEST_DATABASE_URL} is unreachable: SKIPPING the postgres-mode tests ***\n`,
  );
  return ['memory'];
}

/** Whether the postgres-only tests of a file run (see testModes). */
export async function postgresTestsEnabled(): Promise<boolean> {
  return (await testModes()).includes('postgres');
}

/** A schema name no other test file (or run) uses; the run checks at its end that it is gone. */
export function freshSchema(label: string): string {
  const schema = `er_test_${label}_${randomBytes(4).toString('hex')}`;
  recordSchema(schema);
  return schema;
}

export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  try {
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.query(`DROP SCHEMA IF EXISTS "${queueSchema(schema)}" CASCADE`);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Polls `check` until it holds (or throws after `timeoutMs`, naming `what`). */
export async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
