import type pg from 'pg';
import type { HistoryEvent } from '../threads/thread-history.js';
import type { Thread } from '../threads/thread.js';
import type { Delivery, OutgoingMessage } from './delivery.js';

/** What one attempt came to; the store writes it (and schedules the retry) in one write. */
export type DeliveryOutcome =
  | { status: 'delivered'; server_reply: string; delivered_at: string }
  | { status: 'queued'; last_error: string; next_attempt_at: string }
  | { status: 'failed'; last_error: string };

/** Called by the queue for each job: one attempt at the thread's message. */
export type DeliveryHandler = (threadId: string) => Promise<void>;

/**
 * The delivery records and their queue (PostgreSQL + pg-boss, or memory + timers). Each change to a
 * record also writes the thread's view of it and its history event (deliveryEvent), in the same
 * transaction.
 */
export interface DeliveryStore {
  /**
   * Approve's writes, in the decision's transaction (`client`, PostgreSQL): the thread's view (now
   * `sent`), its message, the job that will deliver it, and the history: `events` then `queued`.
   * Throws ThreadMovedOn (nothing written) unless the thread is still awaiting review at
   * `view.revision`.
   */
  commitApproval(
    view: Thread,
    message: OutgoingMessage,
    events: readonly HistoryEvent[],
    client?: pg.PoolClient,
  ): Promise<Delivery>;
  get(threadId: string): Promise<Delivery | undefined>;
  /**
   * Runs `attempt` holding the thread's message (no other worker can take it meanwhile), then records
   * its outcome. Does nothing when another worker holds it, or it is not queued and due.
   */
  attempt(
    threadId: string,
    attempt: (delivery: Delivery) => Promise<DeliveryOutcome>,
  ): Promise<void>;
  /** A failed delivery queued again (attempts from 0); undefined when it is not `failed`. */
  redeliver(threadId: string, at: string): Promise<Delivery | undefined>;
  /** Queues again any message due for longer than `staleMs` (its job was lost); says how many. */
  requeueStale(staleMs: number): Promise<number>;
  /** Starts taking jobs. */
  start(handler: DeliveryHandler): Promise<void>;
  stop(): Promise<void>;
}
