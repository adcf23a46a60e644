import type { Logger } from '@repo/http-kit';
import { redactSecrets } from '@repo/llm-config';
import { openPools, setUpWithRetry } from '@repo/pg-kit';
import { PostgresHandoffs } from '../operator/postgres-handoffs.js';
import { PostgresSessionTurns } from '../sessions/postgres-session-turns.js';
import { SessionLeases } from '../sessions/session-leases.js';
import { setupDatabase } from './setup-database.js';
import { sessionsTable } from './tables.js';
import type { SessionSettings } from '../sessions/session-turns.js';
import { CondensingSessionService } from '../sessions/condensing-session-service.js';
import { PostgresOutbox, type DeliveryMetrics, type WebhookSettings } from '@repo/webhooks';

export interface PostgresSessionsOptions {
  connectionString: string;
  schema: string;
  /** Connections for queries; a turn holds none while the model runs. */
  poolMax: number;
  /** The chat service's session settings (sessionSettings), defaults applied. */
  settings: SessionSettings;
  logger: Logger;
  /** A session's lease unless renewed (default 30 s): how long a dead turn holds its session. */
  leaseMs?: number;
  /** How long to wait for a connection before 503 (PG_CONNECT_TIMEOUT_MS; default 5 s). */
  connectTimeoutMs?: number;
  /** PG_QUERY_TIMEOUT_MS (default 10 s): client side (a frozen server) and as statement timeout. */
  queryTimeoutMs?: number;
  /** Statements prepared once per connection (PG_PREPARED_STATEMENTS; default true). */
  preparedStatements?: boolean;
  /** The help center's schema (KB_SCHEMA), set up with the sessions'. */
  knowledgeSchema?: string;
  /** The webhook endpoints; their deliveries live beside the sessions. */
  webhooks: { settings: WebhookSettings; metrics: DeliveryMetrics };
}

const MAX_RETRY_DELAY_MS = 30_000;
const DEFAULT_LEASE_MS = 30_000;
/** How long a turn waits for another instance's turn of the same session before 429. */
const LEASE_WAIT_MS = 60_000;

/**
 * Sessions, webhook outbox and operators' handoffs over one schema and one pool (shared with the
 * help center; 503 `database_unavailable` while the database is away). `start` sets the schema
 * up, retrying with backoff (/readyz 503 meanwhile) until `untilMs`; a shutdown ends the tries.
 */
export function openPostgresSessions(options: PostgresSessionsOptions) {
  const { logger, settings } = options;
  const connectTimeoutMs = options.connectTimeoutMs ?? 5_000;
  const queryTimeoutMs = options.queryTimeoutMs ?? 10_000;
  let ready = false;
  let closed = false;
  // Turns hold no connection between statements, so one pool serves them all; the lock pool
  // only runs the schema set-up (the query pool refuses work until it is done).
  const { pool, lockPool, health, end } = openPools({
    connectionString: options.connectionString,
    query: {
      max: options.poolMax,
      connectTimeoutMs,
      statementTimeoutMs: queryTimeoutMs,
      queryTimeoutMs,
    },
    locks: { max: 1, connectTimeoutMs },
    logger,
    isReady: () => ready,
    preparedStatements: options.preparedStatements,
  });
  const leases = new SessionLeases(
    pool,
    options.schema,
    { ttlMs: options.leaseMs ?? DEFAULT_LEASE_MS, waitMs: LEASE_WAIT_MS },
    logger,
  );
  const sessionService = new CondensingSessionService(settings.history);
  const outbox = new PostgresOutbox({
    ...options.webhooks,
    logger,
    pool,
    schema: options.schema,
  });
  const turns = new PostgresSessionTurns({
    outbox,
    pool,
    leases,
    schema: options.schema,
    sessionService,
    ...settings,
  });

  const setUp = async () => {
    await setupDatabase(lockPool, options.schema, options.knowledgeSchema);
    ready = true;
    // Its workers' first statements, on the query pool, come at once.
    await outbox.start();
    health.markUp();
  };
  const start = (retry: { untilMs?: number } = {}) =>
    setUpWithRetry(setUp, {
      connectionString: options.connectionString,
      redact: redactSecrets,
      logger,
      untilMs: retry.untilMs,
      maxDelayMs: MAX_RETRY_DELAY_MS,
      stopped: () => closed,
    }).catch((error: unknown) => {
      // Only a shutdown ends the retries early; start() then resolves quietly.
      if (!closed) throw error;
    });

  const handoffs = new PostgresHandoffs({
    pool,
    schema: options.schema,
    clock: settings.clock,
    outbox,
    sessions: {
      table: sessionsTable(options.schema),
      appName: settings.appName,
      userId: settings.userId,
    },
  });

  return {
    pool,
    sessionService,
    turns,
    outbox,
    handoffs,
    readiness: async () => {
      await pool.query('SELECT 1');
    },
    start,
    close: async () => {
      closed = true;
      await outbox.close();
      await end();
    },
  };
}
