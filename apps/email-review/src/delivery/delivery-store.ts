import type { Transaction } from '../persistence/transaction.js';
import type { HistoryEvent } from '../threads/thread-history.js';
import type { Thread } from '../threads/thread.js';
import type { Delivery, OutgoingMessage } from './delivery.js';

/**
 * What one attempt came to; the store writes it in one write. `queued`: deferred, the queue retries
 * the job (the handler throws DeliveryDeferred after the write).
 */
export type DeliveryOutcome =
  | { status: 'delivered' | 'logged'; last_response: string | null; delivered_at: string }
  | { status: 'queued' | 'failed'; last_error: string; last_response: string | null };

/**
 * Called by the queue for each job: one attempt at the thread's message. `lastTry`: the queue will
 * not retry this job again (a transient failure then fails the delivery). Throws to have the job
 * retried (DeliveryDeferred, or any failure to record the attempt).
 */
export type DeliveryHandler = (threadId: string, lastTry: boolean) => Promise<void>;

/** The attempt was deferred and recorded; the queue retries the job after its backoff. */
export class DeliveryDeferred extends Error {
  constructor(readonly threadId: string) {
    super(`delivery of thread ${threadId} deferred`);
  }
}

/** An approval: the thread's view (now `sent`), the message to deliver and the history so far. */
export interface Approval {
  view: Thread;
  message: OutgoingMessage;
  events: readonly HistoryEvent[];
}

/**
 * The delivery records and their queue (PostgreSQL + pg-boss, or memory + timers). Each change to a
 * record also writes the thread's view of it and its history event (deliveryEvent), in the same
 * transaction.
 */
export interface DeliveryStore {
  /**
   * Approve's writes, in the decision's transaction: the thread's view (now `sent`), its message,
   * the job that will deliver it, and the history: `events` then `queued`. Throws ThreadMovedOn
   * unless the thread is still awaiting review at `view.revision` (the transaction then rolls back).
   */
  commitApproval(tx: Transaction, approval: Approval): Promise<Delivery>;
  get(threadId: string): Promise<Delivery | undefined>;
  /**
   * Runs `attempt` holding the thread's message (no other worker can take it meanwhile), then records
   * its outcome and returns it. Does nothing (undefined) when another worker holds it, or it is not
   * queued.
   */
  attempt(
    threadId: string,
    attempt: (delivery: Delivery) => Promise<DeliveryOutcome>,
  ): Promise<DeliveryOutcome | undefined>;
  /**
   * A `failed` or `no_recipient` delivery queued again (attempts from 0), to `to` when given;
   * undefined when it is neither.
   */
  redeliver(threadId: string, to: string | undefined): Promise<Delivery | undefined>;
  /** Starts taking jobs. */
  start(handler: DeliveryHandler): Promise<void>;
  stop(): Promise<void>;
}
