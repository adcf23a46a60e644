import pg from 'pg';
import type { Logger } from 'pino';
import { useNamedStatements } from '../patches/pg-named-statements.js';

export interface PoolOptions {
  connectionString: string;
  /** Connections for queries; the lock pool (one connection per thread being changed) gets as many. */
  poolMax: number;
  /** How long a change waits for a free lock connection before it is refused with 503. */
  lockWaitMs: number;
  /** The `pg-named-statements` patch on the query pool (src/patches/). */
  namedStatements: boolean;
  logger: Logger;
}

export interface Pools {
  /** Every query but the locks'. */
  pool: pg.Pool;
  /** Connections that each hold a thread's advisory lock for a whole change (and the set-up's). */
  lockPool: pg.Pool;
  end(): Promise<void>;
}

/**
 * The service's two pools. Lock holders get a pool of their own so that they can never starve the
 * queries they are waiting on.
 */
export function openPools(options: PoolOptions): Pools {
  const pool = new pg.Pool({ connectionString: options.connectionString, max: options.poolMax });
  if (options.namedStatements) useNamedStatements(pool);
  const lockPool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.poolMax,
    connectionTimeoutMillis: options.lockWaitMs,
  });
  for (const p of [pool, lockPool]) {
    // An idle connection dropped by the server must not crash the process; the pool replaces it.
    p.on('error', (error) => options.logger.warn({ err: error }, 'idle database connection lost'));
  }
  return {
    pool,
    lockPool,
    end: async () => {
      await Promise.all([pool.end(), lockPool.end()]);
    },
  };
}
