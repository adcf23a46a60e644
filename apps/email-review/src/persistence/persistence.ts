import type { BaseCheckpointSaver } from '@langchain/langgraph';
import type { CheckpointTuple } from '@langchain/langgraph-checkpoint';
import type pg from 'pg';
import type { DeliveryStore } from '../delivery/delivery-store.js';
import type { ModelJobs } from '../jobs/model-jobs.js';
import type { ThreadHistory } from '../threads/thread-history.js';
import type { ThreadStore } from '../threads/thread-store.js';
import type { ChangeFeed } from '../changes/change-feed.js';
import type { Outbox } from '@repo/webhooks';
import type { DeferredSaver } from './deferred-saver.js';
import type { StatementPart } from './statement-part.js';

/**
 * One decision. Its saver defers the graph's writes (DeferredSaver), which commit with the
 * decision's compare-and-set or not at all: PostgreSQL puts them in that statement
 * (`checkpointWrites`), on `client` when the decision asked for a transaction (BEGIN…COMMIT, for a
 * decision of more than one statement), else on the pool; memory makes them once the work
 * returns, decisions running one at a time.
 */
export interface DecisionTransaction extends Omit<DeferredWrites, 'flush'> {
  /** PostgreSQL, in a transaction: its client, for the stores' writes. */
  client?: pg.PoolClient;
}

/** A saver's writes held back to be committed by the statement that writes the thread's view. */
export interface DeferredWrites {
  /** LangGraph's saver: reads now, writes deferred. */
  checkpointer: DeferredSaver;
  /** PostgreSQL: the deferred writes as CTEs of that statement (none in memory). */
  checkpointWrites(): Promise<StatementPart | undefined>;
  /**
   * Makes them now, a statement each, through `via` (default: the saver they were deferred from):
   * a run whose result is not committed keeps the steps it finished.
   */
  flush(via?: BaseCheckpointSaver): Promise<void>;
}

/** Everything the service keeps, in one of two flavours: PostgreSQL, or memory (lost on restart). */
export interface Persistence {
  kind: 'postgres' | 'memory';
  checkpointer: BaseCheckpointSaver;
  threads: ThreadStore;
  /** Each thread's history, appended by the writes of `threads` and `deliveries`. */
  history: ThreadHistory;
  /** Delivery records and their queue. */
  deliveries: DeliveryStore;
  /** Every thread's changes as they commit, from any instance (GET /events). */
  changes: ChangeFeed;
  /** Webhook deliveries: written with the changes they report, sent by the outbox's workers. */
  outbox: Outbox;
  /** The model work (classify and draft, redraft, retry) as jobs keyed by thread. */
  modelJobs: ModelJobs;
  /**
   * PostgreSQL: a model job's run's writes, deferred to its result's statement (`fresh`: the
   * create's own run, whose thread has no checkpoint to read). Memory: none, the run writes.
   */
  deferWrites?(options: { fresh: boolean }): DeferredWrites;
  /**
   * Runs `work` as one decision (see DecisionTransaction); `transaction`: on one client,
   * BEGIN…COMMIT; `latest`: the thread's latest checkpoint, read with its view (ThreadStore
   * `getForDecision`).
   */
  decide<T>(
    work: (tx: DecisionTransaction) => Promise<T>,
    options?: { transaction?: boolean; latest?: { tuple: CheckpointTuple | undefined } },
  ): Promise<T>;

  /** Throws when the store cannot serve, for `/readyz`. */
  readiness?: () => Promise<void>;
  /** PostgreSQL mode: the query pool and schema, for the metrics' counts and the retention job. */
  database?: { pool: pg.Pool; schema: string; connectionString: string };
  close(): Promise<void>;
}
