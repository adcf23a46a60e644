import type { DeliveryStatus } from '../delivery/delivery.js';
import type { Transaction } from '../persistence/transaction.js';
import type { HistoryEvent, ThreadHistory } from './thread-history.js';
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

/** A new thread, its idempotency key (if any) and its first history events. */
export interface NewThread {
  thread: Thread;
  idempotencyKey?: string | undefined;
  events: readonly HistoryEvent[];
}

/**
 * A change by compare-and-set: `view` replaces the thread's view only while it is still `from` at
 * `revision`; `events` are appended to its history with it.
 */
export interface ThreadChange {
  view: Thread;
  revision: number;
  from: ThreadStatus;
  events: readonly HistoryEvent[];
}

/**
 * The thread index: each thread's API view (kept current after every step, so reads need no
 * checkpoint), its idempotency key, and newest-first listing by insertion sequence. Writes take
 * their transaction, so the history and webhook events they carry never disagree with the view.
 */
export interface ThreadStore {
  /** Adds a new thread; when its idempotency key is taken, returns that one, `created: false`. */
  create(tx: Transaction, thread: NewThread): Promise<{ thread: Thread; created: boolean }>;
  get(threadId: string): Promise<Thread | undefined>;
  /** False, with nothing written, when the thread has moved on (see ThreadChange). */
  saveDecision(tx: Transaction, change: ThreadChange): Promise<boolean>;
  /** Newest first. */
  list(query: ListQuery): Promise<ThreadPage>;
  /** Each thread's history, appended by this store's writes and the deliveries'. */
  readonly history: ThreadHistory;
  /** Threads by status, and replies waiting in the delivery queue: read on each metrics scrape. */
  counts(): Promise<{ threads: Record<ThreadStatus, number>; queuedDeliveries: number }>;
}
