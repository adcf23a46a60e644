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
 * Creates LangGraph's checkpoint tables and the service's own under one advisory lock: instances
 * starting together would race on `CREATE ... IF NOT EXISTS`. The lock is on `lockPool`, since the
 * checkpointer's `setup()` takes a connection of its own (a pool of one would wait forever).
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
 * pg-boss's start and queue creation one instance at a time (instances starting together would
 * deadlock in them), under a transaction-level lock in the set-up's key space (second key 1).
 */
export function withQueueSetupLock(pool: pg.Pool, work: () => Promise<void>): Promise<void> {
  return withTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1, 1)', [SETUP_LOCK[0]]);
    await work();
  });
}
