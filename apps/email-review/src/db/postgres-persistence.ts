import { openPools } from '@repo/pg-kit';
import { useNamedStatements } from '../patches/pg-named-statements.js';
import type { Logger } from 'pino';
import type { Persistence } from '../persistence/persistence.js';
import { createCheckpointer } from './checkpointer.js';
import { PostgresDeliveries } from './postgres-deliveries.js';
import { PostgresThreadHistory } from './postgres-thread-history.js';
import { PostgresThreadLocks } from './postgres-thread-locks.js';
import { PostgresThreadStore } from './postgres-thread-store.js';
import { setupDatabase } from './setup-database.js';

export interface PostgresOptions {
  connectionString: string;
  schema: string;
  /** Connections for queries; the lock pool (one connection per thread being changed) gets as many. */
  poolMax: number;
  /** How long a change waits for a free lock connection before it is refused with 503. */
  lockWaitMs?: number;
  logger: Logger;
  /** The delivery queue's lease (a dead worker's job is handed out again after it) and concurrency. */
  queue?: { leaseSeconds: number; concurrency: number };
  /** Framework patches (src/patches/), each on unless set to false: off only to measure its gain. */
  namedStatements?: boolean;
  oneStatementCheckpointWrites?: boolean;
}

const DEFAULT_LOCK_WAIT_MS = 2000;
const DEFAULT_QUEUE = { leaseSeconds: 120, concurrency: 4 };

/** Opens the service's pools, sets the schema up, and returns the PostgreSQL-backed persistence. */
export async function openPostgresPersistence(options: PostgresOptions): Promise<Persistence> {
  const { pool, lockPool, end } = openPools({
    connectionString: options.connectionString,
    query: { max: options.poolMax },
    // A change waits this long for a free lock connection before it is refused with 503.
    locks: { max: options.poolMax, connectTimeoutMs: options.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS },
    ...(options.namedStatements === false ? {} : { prepareQueryPool: useNamedStatements }),
    logger: options.logger,
  });
  try {
    const checkpointer = createCheckpointer(pool, options.schema, {
      oneStatementWrites: options.oneStatementCheckpointWrites ?? true,
    });
    await setupDatabase(lockPool, options.schema, checkpointer);
    const deliveries = new PostgresDeliveries(pool, {
      connectionString: options.connectionString,
      schema: options.schema,
      leaseSeconds: options.queue?.leaseSeconds ?? DEFAULT_QUEUE.leaseSeconds,
      concurrency: options.queue?.concurrency ?? DEFAULT_QUEUE.concurrency,
      logger: options.logger,
    });
    return {
      kind: 'postgres',
      database: { pool, schema: options.schema, connectionString: options.connectionString },
      checkpointer,
      threads: new PostgresThreadStore(pool, options.schema),
      history: new PostgresThreadHistory(pool, options.schema),
      deliveries,
      locks: new PostgresThreadLocks(lockPool, options.logger),
      readiness: async () => {
        await pool.query('SELECT 1');
      },
      close: async () => {
        await deliveries.stop();
        await end();
      },
    };
  } catch (error) {
    await end();
    throw error;
  }
}
