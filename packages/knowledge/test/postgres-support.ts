import { recordSchema } from '@repo/jest-preset/schema-ledger.mjs';
import pg from 'pg';
import { knowledgeTablesMigration } from '../src/store/knowledge-tables.js';

const DATABASE_URL = process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A schema of the test file's own with the knowledge tables, dropped by `drop`. */
export async function knowledgeSchema(name: string) {
  const schema = `${name}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  recordSchema(schema);
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 4 });
  await pool.query(`CREATE SCHEMA "${schema}"`);
  await pool.query(knowledgeTablesMigration(schema));
  return {
    schema,
    pool,
    empty: () =>
      pool.query(`TRUNCATE "${schema}".knowledge_articles, "${schema}".knowledge_lexemes CASCADE`),
    drop: async () => {
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await pool.end();
    },
  };
}
