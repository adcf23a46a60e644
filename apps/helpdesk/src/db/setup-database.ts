import { knowledgeTablesMigration } from '@repo/knowledge';
import { withTransaction } from '@repo/pg-kit';
import { webhookTablesMigration } from '@repo/webhooks';
import type pg from 'pg';
import { SETUP_LOCK } from './lock-keys.js';
import { handoffTablesMigration } from '../operator/handoff-tables.js';
import { sessionTablesMigration } from './tables.js';

/**
 * Creates the schema and the sessions table, and the knowledge base's tables in `knowledgeSchema`
 * (shared with the other services on the database), in one transaction. Instances starting at once
 * would race on `CREATE ... IF NOT EXISTS` (it is not atomic), so it holds an advisory lock.
 */
export async function setupDatabase(
  pool: pg.Pool,
  schema: string,
  knowledgeSchema?: string,
): Promise<void> {
  await withTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1, $2)', [...SETUP_LOCK]);
    await client.query(sessionTablesMigration(schema));
    await client.query(webhookTablesMigration(schema));
    await client.query(handoffTablesMigration(schema));
    // Its own schema, maybe shared with email-review: the migration takes the schema's lock too.
    if (knowledgeSchema) await client.query(knowledgeTablesMigration(knowledgeSchema));
  });
}
