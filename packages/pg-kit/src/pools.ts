import pg from 'pg';
import type { Logger } from '@repo/http-kit';
import { PreparingClient } from './preparing-client.js';

/** One pool's bounds: each wait on a database that is away or frozen ends in time. */
export interface PoolLimits {
  max: number;
  /** How long to wait for a connection (a free one, or a server that answers) before failing. */
  connectTimeoutMs?: number;
  /** Longest statement (server side). */
  statementTimeoutMs?: number;
  /** Longest wait for a row or advisory lock (server side). */
  lockTimeoutMs?: number;
  /**
   * Longest wait for a query's answer (client side): the bound that holds when the server is frozen
   * (connections accepted, nothing answered), where the server-side timeouts never fire.
   */
  queryTimeoutMs?: number;
}

export interface PoolOptions {
  connectionString: string;
  /** Every query but the locks'. */
  query: PoolLimits;
  /** Connections that each hold one lock (a thread's, a session's) for the length of a change. */
  locks: PoolLimits;
  logger: Logger;
  /**
   * Told of an idle connection the server dropped (default: one warn line each). A service that
   * logs outages once (DatabaseHealth.markDown) passes that instead: a restart drops them all.
   */
  onIdleError?: (error: Error) => void;
  /** Parameterized statements prepared once per connection (PG_PREPARED_STATEMENTS; default true). */
  preparedStatements?: boolean;
}

export interface Pools {
  pool: pg.Pool;
  lockPool: pg.Pool;
  end(): Promise<void>;
}

function newPool(connectionString: string, limits: PoolLimits, prepared: boolean): pg.Pool {
  return new pg.Pool({
    // Parameterized statements prepared once per connection (preparing-client.ts).
    Client: prepared ? PreparingClient : pg.Client,
    connectionString,
    max: limits.max,
    // pg reads an undefined setting as an absent one (its default, or none).
    connectionTimeoutMillis: limits.connectTimeoutMs,
    statement_timeout: limits.statementTimeoutMs,
    lock_timeout: limits.lockTimeoutMs,
    query_timeout: limits.queryTimeoutMs,
  });
}

/**
 * A service's two pools. Lock holders get a pool of their own, so that changes holding locks can
 * never starve the queries they (or readers) wait on.
 */
export function openPools(options: PoolOptions): Pools {
  const prepared = options.preparedStatements ?? true;
  const pool = newPool(options.connectionString, options.query, prepared);
  const lockPool = newPool(options.connectionString, options.locks, prepared);
  for (const p of [pool, lockPool]) {
    // An idle connection dropped by the server must not crash the process; the pool replaces it.
    p.on('error', (error) =>
      options.onIdleError
        ? options.onIdleError(error)
        : options.logger.warn({ err: error }, 'idle database connection lost'),
    );
    // One dropped while checked out (a restart, a failover, pg_terminate_backend) emits 'error' on
    // its client, which pg-pool stops listening to at checkout: with no listener, the process
    // ends. The query in flight fails with it, and its holder releases the client as broken.
    p.on('connect', (client) => client.on('error', () => undefined));
  }
  return {
    pool,
    lockPool,
    end: async () => {
      await Promise.all([pool.end(), lockPool.end()]);
    },
  };
}
