import type { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import type pg from 'pg';
import { threadHistoryMigration } from './postgres-thread-history.js';
import { serviceTablesMigration } from './tables.js';

/** Advisory-lock key of the schema set-up, apart from the thread locks' key space. */
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
    } finally {
      await client.query('SELECT pg_advisory_unlock($1, $2)', [...SETUP_LOCK]);
    }
  } finally {
    client.release();
  }
}
