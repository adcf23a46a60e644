import { DatabaseUnavailable, openPools, setUpWithRetry, withTransaction } from '@repo/pg-kit';
import { redactSecrets } from '@repo/llm-config';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import type { Logger } from 'pino';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../delivery/retry-policy.js';
import type { Persistence } from './persistence.js';
import { PostgresDeliveries } from '../delivery/postgres-deliveries.js';
import { OneRowPostgresSaver } from '../patches/langgraph-checkpoint-postgres-one-row-checkpoints.js';
import { JobRunner } from '../jobs/job-runner.js';
import { postgresModelJobs } from '../jobs/postgres-model-jobs.js';
import { PostgresThreadStore } from '../threads/postgres-thread-store.js';
import { setupDatabase } from '../db/setup-database.js';
import { listenForThreadChanges } from '../changes/postgres-changes.js';
import { ChangeFeed } from '../changes/change-feed.js';
import { PostgresOutbox } from '@repo/webhooks';
import { outboxDeps, threadWebhooks, type WebhookOptions } from '../webhooks/thread-webhooks.js';

export interface PostgresOptions {
  connectionString: string;
  schema: string;
  /** Connections for queries. */
  poolMax: number;
  /** Statements prepared once per connection (PG_PREPARED_STATEMENTS; default true). */
  preparedStatements?: boolean;
  logger: Logger;
  /** The model jobs' lease (then another instance takes the job) and this instance's workers. */
  modelWork?: { leaseSeconds: number; concurrency: number };
  /** Bounds of a connection and of a query (default 5 s; client side, as a server may freeze). */
  connectTimeoutMs?: number;
  queryTimeoutMs?: number;
  /** The delivery queue's lease (then a dead worker's job goes out again), workers and retries. */
  queue?: { leaseSeconds: number; concurrency: number; retry?: RetryPolicy };
  /** One-row checkpoints (src/patches/), on unless false; off only to measure their gain. */
  oneRowCheckpoints?: boolean;
  /** Webhook endpoints (WEBHOOK_*): their deliveries live in this schema, sent by the outbox. */
  webhooks?: WebhookOptions;
}

export interface PostgresPersistence extends Persistence {
  database: NonNullable<Persistence['database']>;
  start: NonNullable<Persistence['start']>;
}

const DEFAULT_QUEUE = { leaseSeconds: 120, concurrency: 4 };
const DEFAULT_MODEL_WORK = { leaseSeconds: 120, concurrency: 2 };
/** Reruns of a model job whose run could not commit (e.g. the database away). */
const MODEL_JOB_RETRIES = 5;
/** /readyz answers within 2 s even when the database is frozen. */
const READINESS_TIMEOUT_MS = 1_500;

/** The PostgreSQL-backed persistence, not yet set up: `start()` does that. Nothing connects before it. */
export function createPostgresPersistence(options: PostgresOptions): PostgresPersistence {
  const { logger } = options;
  const limits = {
    connectTimeoutMs: options.connectTimeoutMs ?? 5_000,
    queryTimeoutMs: options.queryTimeoutMs ?? 5_000,
  };
  let ready = false;
  let closed = false;
  // The query pool answers 503 database_unavailable while the database is away, and until the
  // schema is set up (on the lock pool, which also holds the checkpointer's set-up connection).
  const { pool, lockPool, health, end } = openPools({
    connectionString: options.connectionString,
    query: { max: options.poolMax, ...limits, statementTimeoutMs: limits.queryTimeoutMs },
    locks: { max: 2, connectTimeoutMs: limits.connectTimeoutMs },
    logger,
    isReady: () => ready,
    preparedStatements: options.preparedStatements,
  });
  const checkpointer =
    options.oneRowCheckpoints === false
      ? new PostgresSaver(pool, undefined, { schema: options.schema })
      : new OneRowPostgresSaver(pool, options.schema);
  const outbox = new PostgresOutbox({
    ...outboxDeps(options.webhooks, logger),
    pool,
    schema: options.schema,
  });
  const webhooks = threadWebhooks(outbox, options.webhooks);
  const threads = new PostgresThreadStore(pool, options.schema, webhooks);
  const queue = { ...DEFAULT_QUEUE, ...options.queue };
  const modelWork = options.modelWork ?? DEFAULT_MODEL_WORK;
  // The process's one pg-boss; a dead worker's job is handed out again on its maintenance beat.
  const jobs = new JobRunner({
    connectionString: options.connectionString,
    schema: options.schema,
    max: 4 + queue.concurrency + modelWork.concurrency,
    maintenanceIntervalSeconds: Math.max(
      1,
      Math.min(60, Math.floor(Math.min(queue.leaseSeconds, modelWork.leaseSeconds) / 2)),
    ),
    logger,
    health,
  });
  const deliveries = new PostgresDeliveries(pool, {
    schema: options.schema,
    jobs,
    threads,
    leaseSeconds: queue.leaseSeconds,
    concurrency: queue.concurrency,
    retry: options.queue?.retry ?? DEFAULT_RETRY_POLICY,
    logger,
  });
  const changes = new ChangeFeed();
  const listener = listenForThreadChanges({
    connectionString: options.connectionString,
    schema: options.schema,
    feed: changes,
    logger,
  });
  const modelJobs = postgresModelJobs(jobs, { ...modelWork, retryLimit: MODEL_JOB_RETRIES });
  const setUp = async () => {
    // On the lock pool, which the readiness gate does not cover.
    await setupDatabase(
      lockPool,
      options.schema,
      new OneRowPostgresSaver(lockPool, options.schema),
    );
    await listener.start();
    // pg-boss's start and the queues, one instance at a time (the query pool serves once done).
    await jobs.start(lockPool);
    ready = true;
    // Its workers' first statements, on the query pool, come at once.
    await outbox.start();
    health.markUp();
  };
  return {
    kind: 'postgres',
    database: { pool, schema: options.schema, connectionString: options.connectionString, jobs },
    checkpointer,
    // BEGIN; the stores' writes and the graph's checkpoint on one client (a saver on the client
    // joins its transaction); COMMIT.
    transaction: (work) =>
      withTransaction(pool, (client) =>
        work({ client, checkpointer: new OneRowPostgresSaver(client, options.schema) }),
      ),
    threads,
    deliveries,
    changes,
    outbox,
    modelJobs,
    readiness: async () => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new DatabaseUnavailable()), READINESS_TIMEOUT_MS);
      });
      await Promise.race([pool.query('SELECT 1'), timeout]).finally(() => clearTimeout(timer));
    },
    start: async (retry) => {
      if (!retry) return setUp();
      await setUpWithRetry(setUp, {
        connectionString: options.connectionString,
        redact: redactSecrets,
        logger,
        untilMs: retry.untilMs,
        stopped: () => closed,
      });
    },
    close: async () => {
      closed = true;
      await listener.stop();
      await outbox.close();
      await modelJobs.stop();
      await deliveries.stop();
      await jobs.stop();
      await end();
    },
  };
}

/** Opens the service's pools and sets the schema up at once (tests; the server retries instead). */
export async function openPostgresPersistence(
  options: PostgresOptions,
): Promise<PostgresPersistence> {
  const persistence = createPostgresPersistence(options);
  try {
    await persistence.start();
    return persistence;
  } catch (error) {
    await persistence.close();
    throw error;
  }
}
