// The schemas a package's test run creates in the shared test database, so the run can check it removed them
// all. Other engineers' runs use the same database at the same time: only names this run recorded are checked.
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** Where a run keeps its ledger: the package's own test-output (jest runs with the package as cwd). */
export const ledgerPath = (dir = process.cwd()) => join(dir, 'test-output', 'created-schemas.txt');

/** The test database every suite shares. */
export const testDatabaseUrl = () =>
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * Schemas a service derives from one it is given: email-review's pg-boss keeps its queues in
 * `<schema>_pgboss` (apps/email-review/src/db/tables.ts, `queueSchema`; test names are shorter than its cut).
 */
export const derivedSchemas = (schema) => [schema, `${schema}_pgboss`];

/** Notes that this run created (or made a service create) `schema` and what derives from it. */
export function recordSchema(schema, dir = process.cwd()) {
  mkdirSync(join(dir, 'test-output'), { recursive: true });
  appendFileSync(ledgerPath(dir), `${schema}\n`);
}

export function clearLedger(dir = process.cwd()) {
  rmSync(ledgerPath(dir), { force: true });
}

export function recordedSchemas(dir = process.cwd()) {
  if (!existsSync(ledgerPath(dir))) return [];
  return [...new Set(readFileSync(ledgerPath(dir), 'utf8').split('\n').filter(Boolean))];
}

/** Of the recorded schemas and those derived from them, the ones still in the test database. */
export async function leftoverSchemas(recorded, url = testDatabaseUrl()) {
  if (recorded.length === 0) return [];
  // The package that records schemas talks to PostgreSQL, so its own `pg` is there to check them.
  const pg = createRequire(join(process.cwd(), 'package.json'))('pg');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
  } catch {
    return []; // No database: the run created nothing in it.
  }
  try {
    const { rows } = await client.query(
      'SELECT nspname FROM pg_namespace WHERE nspname = ANY($1::text[]) ORDER BY nspname',
      [recorded.flatMap(derivedSchemas)],
    );
    return rows.map((row) => row.nspname);
  } finally {
    await client.end().catch(() => {});
  }
}
