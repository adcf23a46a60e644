import type { CheckpointTuple } from '@langchain/langgraph-checkpoint';
import type pg from 'pg';
import type { StatementPart } from '../persistence/statement-part.js';
import type { DeliveryStatus } from '../delivery/delivery.js';
import type { ModelJob } from '../jobs/model-jobs.js';
import type { HistoryEvent } from './thread-history.js';
import type { Thread, ThreadStatus } from './thread.js';

export interface ListQuery {
  status?: ThreadStatus | undefined;
  delivery?: DeliveryStatus | undefined;
  limit: number;
  /** Continue below this position (from the previous page's `next`). */
  before?: number | undefined;
}

export interface ThreadPage {
  threads: Thread[];
  /** Position to pass as `before` for the next page; absent on the last page. */
  next?: number;
}

/**
 * The thread index: each thread's API view (kept current after every workflow step, so reads need no
 * checkpoint), its idempotency key, and newest-first listing. The graph's checkpoints stay the
 * workflow's own record; this is what the API serves.
 *
 * Positions are an insertion sequence, so "newest first" is a total order without ties.
 *
 * `events` are appended to the thread's history in the same write (one transaction) as the view
 * they describe, so the history never disagrees with the thread, whenever the process dies.
 */
export interface ThreadStore {
  /**
   * Adds a new thread. When `idempotencyKey` already belongs to a thread, nothing is added and
   * that thread is returned with `created: false`. `modelJob`: sent by the same write where the
   * store can (PostgreSQL: a pg-boss job inserted by the thread's insert), answered as `jobId`.
   */
  create(
    thread: Thread,
    idempotencyKey?: string,
    events?: readonly HistoryEvent[],
    client?: pg.PoolClient,
    modelJob?: ModelJob,
  ): Promise<{ thread: Thread; created: boolean; jobId?: string | undefined }>;
  get(threadId: string): Promise<Thread | undefined>;
  /** Replaces the stored view of an existing thread. */
  save(thread: Thread, events?: readonly HistoryEvent[]): Promise<void>;
  /**
   * A change's compare-and-set: replaces the view of a thread still `from` (default: awaiting
   * review) at `revision` with `view` and appends `events`, in `client`'s transaction (PostgreSQL).
   * False, with nothing written, when the thread has moved on meanwhile. `modelJob`: the model job
   * whose result this is ends in the same write, whether or not the view was replaced (PostgreSQL:
   * its pg-boss job is deleted by the same statement; memory jobs have nothing to end).
   */
  saveDecision(
    view: Thread,
    revision: number,
    events: readonly HistoryEvent[],
    client?: pg.PoolClient,
    from?: ThreadStatus,
    modelJob?: string,
    /** A decision's checkpoint writes, written by the same statement when it writes the view. */
    checkpoint?: StatementPart,
  ): Promise<boolean>;
  /**
   * PostgreSQL: the thread and its latest checkpoint, in one query, for a decision (whose
   * updateState then reads that checkpoint). Without it a decision reads them one at a time.
   */
  getForDecision?(
    threadId: string,
  ): Promise<{ thread: Thread | undefined; latest?: { tuple: CheckpointTuple | undefined } }>;
  /** Newest first. */
  list(query: ListQuery): Promise<ThreadPage>;
}
