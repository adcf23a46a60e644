import {
  DatabaseHealth,
  DatabaseUnavailable,
  openPools,
  setUpWithRetry,
  withTransaction,
} from '@repo/pg-kit';
import { redactSecrets } from '@repo/llm-config';
import type { BaseCheckpointSaver } from '@langchain/langgraph';
import type { CheckpointTuple } from '@langchain/langgraph-checkpoint';
import type pg from 'pg';
import type { Logger } from 'pino';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../delivery/retry-policy.js';
import type { DecisionTransaction, Persistence } from './persistence.js';
import { DeferredSaver } from './deferred-saver.js';
import type { StatementPart } from './statement-part.js';
import { createCheckpointer } from '../db/checkpointer.js';
import { guardPool } from '../db/database-outage.js';
import { PostgresDeliveries } from '../delivery/postgres-deliveries.js';
import { PostgresModelJobs } from '../jobs/postgres-model-jobs.js';
import { PostgresThreadHistory } from '../threads/postgres-thread-history.js';
import { PostgresThreadStore } from '../threads/postgres-thread-store.js';
import { setupDatabase } from '../db/setup-database.js';
import { OneRowPostgresSaver } from '../patches/langgraph-checkpoint-postgres-one-row-checkpoints.js';
import { checkpointTables } from '../db/tables.js';
import { listenForThreadChanges } from '../changes/postgres-changes.js';
import { ChangeFeed } from '../changes/change-feed.js';
import { PostgresOutbox } from '@repo/webhooks';
import { outboxDeps, threadWebhooks, type WebhookOptions } from '../webhooks/thread-webhooks.js';
import { withQueueSetupLock } from '../db/setup-database.js';

export interface PostgresOptions {
  connectionString: string;
  schema: string;
  /** Connections for queries. */
  poolMax: number;
  /** Statements prepared once per connection (PG_PREPARED_STATEMENTS; default true). */
  preparedStatements?: boolean;
  logger: Logger;
  /**
   * The model work's queue (src/jobs/postgres-model-jobs.ts): the longest a run may take before
   * another instance takes its job (default 120 s), and this instance's workers for such jobs.
   */
  modelWork?: { leaseSeconds: number; concurrency: number };
  /**
   * Bounds of each database wait (default 5 s each): a connection (free, or from a server that
   * answers), and a query's answer (client side, so it holds when the server is frozen).
   */
  connectTimeoutMs?: number;
  queryTimeoutMs?: number;
  /**
   * The delivery queue's lease (a dead worker's job is handed out again after it), concurrency and
   * retries (pg-boss's own, the default policy unless set).
   */
  queue?: { leaseSeconds: number; concurrency: number; retry?: RetryPolicy };
  /** The framework patch (src/patches/), on unless set to false: off only to measure its gain. */
  oneRowCheckpoints?: boolean;
  /** Webhook endpoints (WEBHOOK_*): their deliveries live in this schema, sent by pg-boss jobs. */
  webhooks?: WebhookOptions;
}

export interface PostgresPersistence extends Persistence {
  /**
   * Sets the schema up. With `retry`, tries again with backoff while the database cannot be reached
   * (logged once), for at most `untilMs` (then rejects); every request meanwhile answers 503.
   */
  start(retry?: { untilMs: number; firstDelayMs?: number }): Promise<void>;
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
  // The lock pool only holds the set-up's advisory lock (the checkpointer's set-up takes a second
  // connection of it).
  const health = new DatabaseHealth(logger);
  const { pool, lockPool, end } = openPools({
    connectionString: options.connectionString,
    query: { max: options.poolMax, ...limits, statementTimeoutMs: limits.queryTimeoutMs },
    locks: { max: 2, connectTimeoutMs: limits.connectTimeoutMs },
    logger,
    onIdleError: (error) => health.markDown(error),
    preparedStatements: options.preparedStatements,
  });
  let ready = false;
  let closed = false;
  guardPool(pool, health, () => ready);
  const checkpointer = createCheckpointer(pool, options.schema, {
    oneRowCheckpoints: options.oneRowCheckpoints ?? true,
  });
  const outbox = new PostgresOutbox({
    ...outboxDeps(options.webhooks, logger),
    pool,
    schema: options.schema,
  });
  const webhooks = threadWebhooks(outbox, options.webhooks?.settings.includeContent ?? false);
  const deliveries = new PostgresDeliveries(pool, {
    webhooks,
    connectionString: options.connectionString,
    schema: options.schema,
    leaseSeconds: options.queue?.leaseSeconds ?? DEFAULT_QUEUE.leaseSeconds,
    concurrency: options.queue?.concurrency ?? DEFAULT_QUEUE.concurrency,
    retry: options.queue?.retry ?? DEFAULT_RETRY_POLICY,
    logger,
    health,
  });
  const changes = new ChangeFeed();
  const listener = listenForThreadChanges({
    connectionString: options.connectionString,
    schema: options.schema,
    feed: changes,
    logger,
  });
  let listening = false;
  // Its queue is set up with the schema, on the lock pool (the query pool serves once that is done).
  const modelJobs = new PostgresModelJobs(lockPool, {
    connectionString: options.connectionString,
    schema: options.schema,
    ...(options.modelWork ?? DEFAULT_MODEL_WORK),
    retryLimit: MODEL_JOB_RETRIES,
    logger,
    health,
  });
  const setUp = async () => {
    // On the lock pool, which the readiness gate does not cover.
    const setupSaver = createCheckpointer(lockPool, options.schema, { oneRowCheckpoints: true });
    await setupDatabase(lockPool, options.schema, setupSaver);
    if (!listening) {
      listening = true;
      await listener.start();
    }
    await modelJobs.open();
    // pg-boss's start, one instance at a time (see withQueueSetupLock).
    await withQueueSetupLock(lockPool, () => outbox.start());
    ready = true;
    health.markUp();
  };
  const oneRowSaver = (db: pg.Pool | pg.PoolClient) =>
    new OneRowPostgresSaver(db, options.schema, checkpointTables(options.schema));
  // The query pool's one-row saver: the checkpointer itself unless the patch is off.
  const poolSaver = checkpointer instanceof OneRowPostgresSaver ? checkpointer : oneRowSaver(pool);
  /**
   * Writes deferred on `saver`, for one statement; `unwritten` tells whether some were left out of
   * it (a store, or a wrapper of one, that dropped them would leave the view ahead of its checkpoint).
   */
  function deferredWrites(
    saver: OneRowPostgresSaver,
    first?: { tuple: CheckpointTuple | undefined },
  ) {
    const deferred = new DeferredSaver(saver, first ? { first } : {});
    let taken = 0;
    let written = false;
    return {
      checkpointer: deferred,
      checkpointWrites: async (): Promise<StatementPart> => {
        taken = deferred.writes.length;
        const part = await saver.statementPart(deferred.writes);
        return {
          params: part.params,
          ctes: (guard, first) => {
            written = true;
            return part.ctes(guard, first);
          },
        };
      },
      flush: (via?: BaseCheckpointSaver) => deferred.flush(via),
      unwritten: () => deferred.writes.length > 0 && (deferred.writes.length !== taken || !written),
    };
  }
  /** Runs a decision's work; the graph's writes it deferred must have gone into its statement. */
  async function decision<T>(
    work: (tx: DecisionTransaction) => Promise<T>,
    saver: OneRowPostgresSaver,
    latest: { tuple: CheckpointTuple | undefined } | undefined,
    client?: pg.PoolClient,
  ): Promise<T> {
    const writes = deferredWrites(saver, latest);
    const result = await work({ ...writes, client });
    if (writes.unwritten())
      throw new Error('a decision left checkpoint writes out of its statement');
    return result;
  }
  return {
    kind: 'postgres',
    database: { pool, schema: options.schema, connectionString: options.connectionString },
    checkpointer,
    // A decision's checkpoint rides in its compare-and-set's statement: it commits with its view.
    decide: (work, { transaction = true, latest } = {}) =>
      transaction
        ? withTransaction(pool, (client) => decision(work, oneRowSaver(client), latest, client))
        : decision(work, poolSaver, latest),
    // Runs on the stock saver when the patch is off (decisions stay one-row: the stock saver cannot
    // write on a transaction's client); either format reads the other's rows.
    ...(options.oneRowCheckpoints === false
      ? {}
      : {
          deferWrites: ({ fresh }: { fresh: boolean }) =>
            deferredWrites(poolSaver, fresh ? { tuple: undefined } : undefined),
        }),
    threads: new PostgresThreadStore(pool, options.schema, webhooks, modelJobs, poolSaver),
    history: new PostgresThreadHistory(pool, options.schema),
    deliveries,
    changes,
    outbox,
    modelJobs,
    readiness: async () => {
      if (!ready) throw new DatabaseUnavailable();
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
        firstDelayMs: retry.firstDelayMs,
        stopped: () => closed,
      });
    },
    close: async () => {
      closed = true;
      await listener.stop();
      await outbox.close();
      await modelJobs.stop();
      await deliveries.stop();
      await end();
    },
  };
}

/** Opens the service's pools and sets the schema up at once (tests; the server retries instead). */
export async function openPostgresPersistence(options: PostgresOptions): Promise<Persistence> {
  const persistence = createPostgresPersistence(options);
  try {
    await persistence.start();
    return persistence;
  } catch (error) {
    await persistence.close();
    throw error;
  }
}
