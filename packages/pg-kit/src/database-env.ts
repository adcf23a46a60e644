import { flagFromEnv, positiveIntFromEnv } from '@repo/http-kit';
import { z } from 'zod';

/**
 * The database part of a service's environment, for its env schema to extend:
 * `httpServiceEnv(port).extend(databaseEnv({ poolMax: 10, queryTimeoutMs: 5_000 }))`. Without DATABASE_URL the service
 * keeps its state in memory.
 */
export function databaseEnv(defaults: { poolMax: number; queryTimeoutMs: number }) {
  return {
    DATABASE_URL: z
      .string()
      .trim()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// connection URL')
      .optional(),
    /** Schema holding the service's tables; lets several deployments (or test runs) share a database. */
    DATABASE_SCHEMA: z
      .string()
      .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lower-case SQL identifier')
      .default('public'),
    PG_POOL_MAX: positiveIntFromEnv(defaults.poolMax),
    /**
     * Statements prepared once per connection (preparing-client.ts). `false` behind a pooler that
     * cannot keep them (PgBouncer in transaction mode before 1.21).
     */
    PG_PREPARED_STATEMENTS: flagFromEnv(true),
    /** The longest wait for a connection: a free one, or a server that answers. */
    PG_CONNECT_TIMEOUT_MS: positiveIntFromEnv(5_000),
    /**
     * The longest wait for a query's answer, client side (it holds when the server is frozen:
     * connections accepted, nothing answered) and as the statement timeout.
     */
    PG_QUERY_TIMEOUT_MS: positiveIntFromEnv(defaults.queryTimeoutMs),
  };
}
