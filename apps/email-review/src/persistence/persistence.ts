import type { BaseCheckpointSaver } from '@langchain/langgraph';
import type { Transaction } from './transaction.js';
import type pg from 'pg';
import type { DeliveryStore } from '../delivery/delivery-store.js';
import type { JobRunner } from '../jobs/job-runner.js';
import type { ModelJobs } from '../jobs/model-jobs.js';
import type { ThreadStore } from '../threads/thread-store.js';
import type { ChangeFeed } from '../changes/change-feed.js';
import type { Outbox } from '@repo/webhooks';

/** Everything the service keeps, in one of two flavours: PostgreSQL, or memory (lost on restart). */
export interface Persistence {
  kind: 'postgres' | 'memory';
  checkpointer: BaseCheckpointSaver;
  threads: ThreadStore;
  deliveries: DeliveryStore;
  /** Every thread's changes as they commit, from any instance (GET /events). */
  changes: ChangeFeed;
  /** Webhook deliveries: written with the changes they report, sent by the outbox's workers. */
  outbox: Outbox;
  /** The model work (classify and draft, redraft, retry) as jobs keyed by thread. */
  modelJobs: ModelJobs;
  /** Runs `work` as one transaction (see Transaction); a throw rolls it back. */
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
  /** Throws when the store cannot serve, for `/readyz`. */
  readiness?: () => Promise<void>;
  /**
   * PostgreSQL mode: the query pool and schema (the metrics' counts, the mailbox's place and lock)
   * and the process's job runner (the retention job's queue).
   */
  database?: { pool: pg.Pool; schema: string; connectionString: string; jobs: JobRunner };
  /**
   * Sets the store up (PostgreSQL: the schema), trying again with backoff for at most `untilMs`
   * while the database cannot be reached; memory mode has nothing to set up.
   */
  start?(retry?: { untilMs: number }): Promise<void>;
  close(): Promise<void>;
}
