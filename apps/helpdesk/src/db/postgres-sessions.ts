import type pg from 'pg';
import type { Logger } from '@repo/http-kit';
import { redactSecrets } from '@repo/llm-config';
import { openPools, setUpWithRetry } from '@repo/pg-kit';
import { PostgresHandoffs } from '../operator/postgres-handoffs.js';
import { PostgresSessionService } from './postgres-session-service.js';
import { PostgresSessionTurns } from './postgres-session-turns.js';
import { SessionLeases } from './session-leases.js';
import { setupDatabase } from './setup-database.js';
import { sessionsTable } from './tables.js';
import type { SessionSettings } from '../sessions/session-turns.js';
import { PostgresOutbox, type DeliveryMetrics, type WebhookSettings } from '@repo/webhooks';

export interface PostgresSessionsOptions {
  connectionString: string;
  schema: string;
  /** Connections for queries. A turn holds none while the model runs, so this bounds queries, not turns. */
  poolMax: number;
  /** The chat service's session settings (sessionSettings), defaults applied. */
  settings: SessionSettings;
  logger: Logger;
  /**
   * How long a session's lease lasts unless its turn renews it (default 30 s; renewed every
   * third of it): a turn whose process died holds its session no longer than this.
   */
  leaseMs?: number;
  /** How long a turn waits for another instance's turn of the same session (default 60 s). */
  leaseWaitMs?: number;
  /** How long to wait for a connection before 503 (PG_CONNECT_TIMEOUT_MS; default 5 s). */
  connectTimeoutMs?: number;
  /**
   * How long to wait for a query's answer before 503 (PG_QUERY_TIMEOUT_MS; default 10 s), client
   * side (a frozen server answers nothing, and would hold the turn and its connection) and as the
   * statement timeout.
   */
  queryTimeoutMs?: number;
  /** Statements prepared once per connection (PG_PREPARED_STATEMENTS; default true). */
  preparedStatements?: boolean;
  /** Start-up retries while the database is away: first delay, doubling up to 30 s. */
  retryBaseMs?: number;
  /** The help center's schema (KB_SCHEMA), set up with the sessions'. */
  knowledgeSchema?: string;
  /** The webhook endpoints: their deliveries live beside the sessions, taken from there by the outbox's workers. */
  webhooks: { settings: WebhookSettings; metrics: DeliveryMetrics };
}

export interface PostgresSessions {
  sessionService: PostgresSessionService;
  turns: PostgresSessionTurns;
  /** Webhook deliveries, committed with the session writes that report them. */
  outbox: PostgresOutbox;
  /** The operators' queue and the conversations' live events, shared by every instance. */
  handoffs: PostgresHandoffs;
  /**
   * The query pool, which the help center's knowledge base shares: before set-up, or with the
   * database unreachable, its queries fail as DatabaseUnavailable (503 `database_unavailable`).
   */
  pool: pg.Pool;
  /** For /readyz: throws until the schema is set up and while the database does not answer. */
  readiness(): Promise<void>;
  /**
   * Sets the schema up, trying again with backoff while the database is away (the service
   * listens meanwhile: /healthz 200, /readyz and every session request 503). Resolves once
   * ready; with `untilMs`, rejects with the last error once the next try would start later than
   * that (DATABASE_STARTUP_TIMEOUT_MS). A shutdown ends the tries quietly.
   */
  start(retry?: { untilMs?: number }): Promise<void>;
  close(): Promise<void>;
}

const MAX_RETRY_DELAY_MS = 30_000;
const DEFAULT_LEASE_MS = 30_000;
const DEFAULT_LEASE_WAIT_MS = 60_000;

/** Sessions in PostgreSQL: pools, ADK's session service and the turns store over one schema. */
export function openPostgresSessions(options: PostgresSessionsOptions): PostgresSessions {
  const { logger, settings } = options;
  const connectTimeoutMs = options.connectTimeoutMs ?? 5_000;
  const queryTimeoutMs = options.queryTimeoutMs ?? 10_000;
  let ready = false;
  let closed = false;
  // Turns hold no connection between statements, so one pool serves them all; the lock pool
  // only holds the schema set-up's advisory lock.
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
    {
      ttlMs: options.leaseMs ?? DEFAULT_LEASE_MS,
      waitMs: options.leaseWaitMs ?? DEFAULT_LEASE_WAIT_MS,
    },
    logger,
  );
  const sessionService = new PostgresSessionService(
    pool,
    options.schema,
    settings.history,
    settings.clock,
  );
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
      firstDelayMs: options.retryBaseMs,
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
