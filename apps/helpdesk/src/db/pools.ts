import pg from 'pg';
import type { Logger } from '@repo/http-kit';

export interface PoolOptions {
  connectionString: string;
  /** Connections for reads and sweeps. */
  poolMax: number;
  /** Connections that each hold one session's lock for a turn: sessions in a turn at once, per instance. */
  lockPoolMax: number;
  /** How long a request waits for a connection (or a frozen server) before 503. */
  connectTimeoutMs: number;
  /** Longest wait for a session's lock (another instance's turn) before 429 `session_busy`. */
  lockWaitMs: number;
  logger: Logger;
}

export interface Pools {
  pool: pg.Pool;
  lockPool: pg.Pool;
  end(): Promise<void>;
}

/**
 * The two pools. Lock holders get their own, so that turns holding locks (for the length of a
 * model call) can never starve the reads that GET /sessions and the sweep make.
 */
export function openPools(options: PoolOptions): Pools {
  const common = {
    connectionString: options.connectionString,
    connectionTimeoutMillis: options.connectTimeoutMs,
  };
  const pool = new pg.Pool({
    ...common,
    max: options.poolMax,
    statement_timeout: 10_000,
  });
  const lockPool = new pg.Pool({
    ...common,
    max: options.lockPoolMax,
    lock_timeout: options.lockWaitMs,
    statement_timeout: options.lockWaitMs + 5_000,
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
