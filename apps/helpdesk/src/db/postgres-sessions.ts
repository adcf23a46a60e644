import type { Logger } from '@repo/http-kit';
import { redactSecrets } from '@repo/llm-config';
import type { SessionSettings } from '../chat/chat-service.js';
import { DatabaseHealth, DatabaseUnavailable, openPools, setUpWithRetry } from '@repo/pg-kit';
import { PostgresSessionService } from './postgres-session-service.js';
import { PostgresSessionTurns } from './postgres-session-turns.js';
import { setupDatabase } from './setup-database.js';

export interface PostgresSessionsOptions {
  connectionString: string;
  schema: string;
  /** Connections holding session locks: sessions in a turn at once on this instance. */
  poolMax: number;
  /** The chat service's session settings (sessionSettings), defaults applied. */
  settings: SessionSettings;
  logger: Logger;
  /** How long a turn waits for another instance's turn of the same session (default 60 s). */
  lockWaitMs?: number;
  /** How long to wait for a connection before 503 (default 5 s). */
  connectTimeoutMs?: number;
  /** Start-up retries while the database is away: first delay, doubling up to 30 s. */
  retryBaseMs?: number;
}

export interface PostgresSessions {
  sessionService: PostgresSessionService;
  turns: PostgresSessionTurns;
  /** For /readyz: throws until the schema is set up and while the database does not answer. */
  readiness(): Promise<void>;
  /**
   * Sets the schema up, trying again with backoff while the database is away (the service
   * listens meanwhile: /healthz 200, /readyz and every session request 503). Resolves once ready.
   */
  start(): Promise<void>;
  close(): Promise<void>;
}

const MAX_RETRY_DELAY_MS = 30_000;

/** Sessions in PostgreSQL: pools, ADK's session service and the turns store over one schema. */
export function openPostgresSessions(options: PostgresSessionsOptions): PostgresSessions {
  const { logger, settings } = options;
  const connectTimeoutMs = options.connectTimeoutMs ?? 5_000;
  const lockWaitMs = options.lockWaitMs ?? 60_000;
  const pools = openPools({
    connectionString: options.connectionString,
    query: {
      max: Math.max(2, Math.ceil(options.poolMax / 4)),
      connectTimeoutMs,
      statementTimeoutMs: 10_000,
    },
    locks: {
      max: options.poolMax,
      connectTimeoutMs,
      lockTimeoutMs: lockWaitMs,
      statementTimeoutMs: lockWaitMs + 5_000,
    },
    logger,
  });
  const health = new DatabaseHealth(logger);
  let ready = false;
  let closed = false;
  const sessionService = new PostgresSessionService(
    pools.pool,
    options.schema,
    settings.history,
    settings.clock,
  );
  const turns = new PostgresSessionTurns({
    pool: pools.pool,
    lockPool: pools.lockPool,
    schema: options.schema,
    sessionService,
    ...settings,
    health,
    isReady: () => ready,
    logger,
  });

  const setUp = async () => {
    await setupDatabase(pools.lockPool, options.schema);
    ready = true;
    health.markUp();
  };
  // No time bound: the service keeps answering 503 until the database comes, however long.
  const start = () =>
    setUpWithRetry(setUp, {
      connectionString: options.connectionString,
      redact: redactSecrets,
      logger,
      ...(options.retryBaseMs !== undefined ? { firstDelayMs: options.retryBaseMs } : {}),
      maxDelayMs: MAX_RETRY_DELAY_MS,
      stopped: () => closed,
    }).catch((error: unknown) => {
      // Only a shutdown ends the retries early; start() then resolves quietly.
      if (!closed) throw error;
    });

  return {
    sessionService,
    turns,
    readiness: async () => {
      if (!ready) throw new DatabaseUnavailable();
      await health.guard(() => pools.pool.query('SELECT 1'));
    },
    start,
    close: async () => {
      closed = true;
      await pools.end();
    },
  };
}
