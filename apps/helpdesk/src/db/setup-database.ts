import { knowledgeTablesMigration } from '@repo/knowledge';
import { webhookTablesMigration } from '@repo/webhooks';
import type pg from 'pg';
import { SETUP_LOCK } from './lock-keys.js';
import { handoffTablesMigration } from '../operator/handoff-tables.js';
import { sessionTablesMigration } from './tables.js';

/**
 * Creates the schema and the sessions table, and the knowledge base's tables in `knowledgeSchema`
 * (shared with the other services on the database). Instances starting at once would race on
 * `CREATE ... IF NOT EXISTS` (it is not atomic), so the set-up runs under one advisory lock.
 */
export async function setupDatabase(
  pool: pg.Pool,
  schema: string,
  knowledgeSchema?: string,
): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1, $2)', [...SETUP_LOCK]);
    try {
      await client.query(sessionTablesMigration(schema));
      await client.query(webhookTablesMigration(schema));
      await client.query(handoffTablesMigration(schema));
      // Its own schema, maybe shared with email-review: the migration takes the schema's lock too.
      if (knowledgeSchema) await client.query(knowledgeTablesMigration(knowledgeSchema));
    } finally {
      await client.query('SELECT pg_advisory_unlock($1, $2)', [...SETUP_LOCK]);
    }
    client.release();
  } catch (error) {
    client.release(error instanceof Error ? error : true);
    throw error;
  }
}
