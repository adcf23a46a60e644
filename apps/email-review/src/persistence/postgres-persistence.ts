import pg from 'pg';
import type { Logger } from 'pino';
import { PostgresCheckpointer } from '../checkpointer/postgres-checkpointer.js';
import { PostgresThreadLocks } from '../locks/postgres-thread-locks.js';
import { PostgresOutbox } from '../mailer/postgres-outbox.js';
import { PostgresThreadStore } from '../threads/postgres-thread-store.js';
import type { Persistence } from './persistence.js';
import { useNamedStatements } from './named-statements.js';
import { setupDatabase } from './setup-database.js';

export interface PostgresOptions {
  connectionString: string;
  schema: string;
  /** Connections for queries; the lock pool (one connection per thread being changed) gets as many. */
  poolMax: number;
  /** How long a change waits for a free lock connection before it is refused with 503. */
  lockWaitMs?: number;
  logger: Logger;
}

const DEFAULT_LOCK_WAIT_MS = 2000;

/** Opens the service's pools, sets the schema up, and returns the PostgreSQL-backed persistence. */
export async function openPostgresPersistence(options: PostgresOptions): Promise<Persistence> {
  const pool = useNamedStatements(
    new pg.Pool({ connectionString: options.connectionString, max: options.poolMax }),
  );
  const lockPool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.poolMax,
    connectionTimeoutMillis: options.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS,
  });
  for (const p of [pool, lockPool]) {
    // An idle connection dropped by the server must not crash the process; the pool replaces it.
    p.on('error', (error) => options.logger.warn({ err: error }, 'idle database connection lost'));
  }
  const close = async () => {
    await Promise.all([pool.end(), lockPool.end()]);
  };
  try {
    const checkpointer = new PostgresCheckpointer(pool, options.schema);
    await setupDatabase(lockPool, options.schema, checkpointer);
    return {
      kind: 'postgres',
      checkpointer,
      threads: new PostgresThreadStore(pool, options.schema),
      outbox: new PostgresOutbox(pool, options.schema),
      locks: new PostgresThreadLocks(lockPool, options.logger),
      readiness: async () => {
        await pool.query('SELECT 1');
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
