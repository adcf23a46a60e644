import type { BaseCheckpointSaver } from '@langchain/langgraph';
import type pg from 'pg';
import type { DeliveryStore } from '../delivery/delivery-store.js';
import type { ModelJobs } from './model-jobs.js';
import type { ThreadHistory } from '../threads/thread-history.js';
import type { ThreadStore } from '../threads/thread-store.js';

/**
 * One decision's transaction. PostgreSQL: BEGIN…COMMIT on one client, which the checkpointer and
 * the stores' writes share, so the view, its history and the checkpoint commit together or not at
 * all. Memory: transactions run one at a time.
 */
export interface DecisionTransaction {
  /** LangGraph's saver, reading and writing inside the transaction. */
  checkpointer: BaseCheckpointSaver;
  /** PostgreSQL: the transaction's client, for the stores' writes. */
  client?: pg.PoolClient;
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
  /** The model work (classify and draft, redraft, retry) as jobs keyed by thread. */
  modelJobs: ModelJobs;
  /** Runs `work` as one transaction (see DecisionTransaction): committed when it returns. */
  decide<T>(work: (tx: DecisionTransaction) => Promise<T>): Promise<T>;
  /** Throws when the store cannot serve, for `/readyz`. */
  readiness?: () => Promise<void>;
  /** PostgreSQL mode: the query pool and schema, for the metrics' counts and the retention job. */
  database?: { pool: pg.Pool; schema: string; connectionString: string };
  close(): Promise<void>;
}
