import type { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import { withTransaction } from '@repo/pg-kit';
import type pg from 'pg';
import { threadHistoryMigration } from '../threads/postgres-thread-store.js';
import { serviceTablesMigration } from './tables.js';
import { threadChangeMigration } from '../changes/postgres-changes.js';
import { webhookTablesMigration } from '@repo/webhooks';
import { guidelineTablesMigration } from '../guidelines/postgres-guidelines.js';
import { qualityTablesMigration } from '../quality/postgres-quality-ledger.js';

/** Advisory-lock key of the schema set-up. */
const SETUP_LOCK = [0x454d4c53, 0] as const;

/**
 * Creates the checkpoint tables (LangGraph's migrations) and the service's own tables. Several
 * instances starting at once would race on `CREATE ... IF NOT EXISTS` (it is not atomic), so the
 * whole set-up runs under one advisory lock; late starters wait, then find everything in place.
 *
 * The lock is held on a connection of `lockPool`, not of the checkpointer's pool: `setup()` takes a
 * connection of its own from that pool, which would wait forever on a pool of one.
 */
export async function setupDatabase(
  lockPool: pg.Pool,
  schema: string,
  checkpointer: PostgresSaver,
): Promise<void> {
  const client = await lockPool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1, $2)', [...SETUP_LOCK]);
    try {
      await checkpointer.setup();
      await client.query(serviceTablesMigration(schema));
      await client.query(threadHistoryMigration(schema));
      await client.query(threadChangeMigration(schema));
      await client.query(webhookTablesMigration(schema));
      await client.query(guidelineTablesMigration(schema));
      await client.query(qualityTablesMigration(schema));
    } finally {
      await client.query('SELECT pg_advisory_unlock($1, $2)', [...SETUP_LOCK]);
    }
  } finally {
    client.release();
  }
}

/**
 * pg-boss's start (its migrations, queue creation) one instance at a time: instances starting
 * together would deadlock in them. A transaction-level advisory lock in the set-up's key space
 * (second key 1), taken by the delivery queue and the retention job alike.
 */
export function withQueueSetupLock(pool: pg.Pool, work: () => Promise<void>): Promise<void> {
  return withTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1, 1)', [SETUP_LOCK[0]]);
    await work();
  });
}
