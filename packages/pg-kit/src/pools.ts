import pg from 'pg';
import type { Logger } from '@repo/http-kit';
import { DatabaseHealth } from './database-health.js';
import { GuardedPool, survivingDroppedConnections } from './guarded-pool.js';
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
  /** Until true (the schema is set up), the query pool refuses every call as DatabaseUnavailable. */
  isReady?: () => boolean;
  /** Parameterized statements prepared once per connection (PG_PREPARED_STATEMENTS; default true). */
  preparedStatements?: boolean;
}

export interface Pools {
  /** 503 `database_unavailable` while the database cannot be reached (GuardedPool). */
  pool: pg.Pool;
  /** Its errors as they come: the set-up on it says why it waits, and why it gave up. */
  lockPool: pg.Pool;
  /** The pools' outage, logged once when it starts and once when it ends. */
  health: DatabaseHealth;
  end(): Promise<void>;
}

function poolConfig(connectionString: string, limits: PoolLimits, prepared: boolean) {
  return {
    // Parameterized statements prepared once per connection (preparing-client.ts).
    Client: prepared ? PreparingClient : pg.Client,
    connectionString,
    max: limits.max,
    // pg reads an undefined setting as an absent one (its default, or none).
    connectionTimeoutMillis: limits.connectTimeoutMs,
    statement_timeout: limits.statementTimeoutMs,
    lock_timeout: limits.lockTimeoutMs,
    query_timeout: limits.queryTimeoutMs,
  };
}

/**
 * A service's two pools. Lock holders get a pool of their own, so that changes holding locks can
 * never starve the queries they (or readers) wait on.
 */
export function openPools(options: PoolOptions): Pools {
  const prepared = options.preparedStatements ?? true;
  const health = new DatabaseHealth(options.logger);
  const pool = new GuardedPool(poolConfig(options.connectionString, options.query, prepared), {
    health,
    isReady: options.isReady,
  });
  const lockPool = new pg.Pool(poolConfig(options.connectionString, options.locks, prepared));
  survivingDroppedConnections(lockPool, health);
  return {
    pool,
    lockPool,
    health,
    end: async () => {
      await Promise.all([pool.end(), lockPool.end()]);
    },
  };
}
