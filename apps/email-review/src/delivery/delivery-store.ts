import type { Transaction } from '../persistence/transaction.js';
import { ThreadMovedOn } from '../threads/thread-errors.js';
import type { ThreadStore } from '../threads/thread-store.js';
import type { HistoryEvent } from '../threads/thread-history.js';
import type { Thread } from '../threads/thread.js';
import {
  deliveryEvent,
  deliveryView,
  newDelivery,
  type Delivery,
  type OutgoingMessage,
} from './delivery.js';

/** What one attempt came to. `queued`: deferred, the queue retries the job. */
export type DeliveryOutcome =
  | { status: 'delivered' | 'logged'; last_response: string | null; delivered_at: string }
  | { status: 'queued' | 'failed'; last_error: string; last_response: string | null };

/**
 * The queue's handler of one job: one attempt at the thread's message. `lastTry`: a transient
 * failure now fails the delivery. Throws to have the job retried.
 */
export type DeliveryHandler = (threadId: string, lastTry: boolean) => Promise<void>;

/** An approval: the thread's view (now `sent`), the message to deliver and the history so far. */
export interface Approval {
  view: Thread;
  message: OutgoingMessage;
  events: readonly HistoryEvent[];
}

/**
 * The delivery records and their queue (PostgreSQL + pg-boss, or memory + timers). Each change to a
 * record also writes the thread's view of it and its history event, in the same transaction.
 */
export interface DeliveryStore {
  /** Approve's writes in `tx` (see saveApproval), the record and the job that will deliver it. */
  commitApproval(tx: Transaction, approval: Approval): Promise<Delivery>;
  get(threadId: string): Promise<Delivery | undefined>;
  /**
   * Runs `attempt` holding the thread's queued message, then records its outcome (applyOutcome) and
   * returns the record; undefined when the message is not queued or another worker holds it.
   */
  attempt(
    threadId: string,
    attempt: (delivery: Delivery) => Promise<DeliveryOutcome>,
  ): Promise<Delivery | undefined>;
  /** A `failed` or `no_recipient` delivery queued again (see requeued); undefined otherwise. */
  redeliver(threadId: string, to: string | undefined): Promise<Delivery | undefined>;
  start(handler: DeliveryHandler): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Approve's view (now carrying its delivery) and history, `queued` last, by the thread store's
 * compare-and-set in `tx`; the record the store then writes. Throws ThreadMovedOn unless the thread
 * still awaits review at `view.revision`.
 */
export async function saveApproval(
  threads: ThreadStore,
  tx: Transaction,
  { view, message, events }: Approval,
): Promise<Delivery> {
  const delivery = newDelivery(message);
  const queued = deliveryEvent(delivery, 'approved', view.sent_at ?? view.updated_at);
  const saved = await threads.saveDecision(tx, {
    view: { ...view, delivery: deliveryView(delivery) },
    revision: view.revision,
    from: 'awaiting_review',
    events: [...events, queued],
  });
  if (!saved) throw new ThreadMovedOn(view.thread_id);
  return delivery;
}

/** The record after an attempt: attempts + 1, and the outcome's fields. */
export function applyOutcome(delivery: Delivery, outcome: DeliveryOutcome): Delivery {
  return { ...delivery, ...outcome, attempts: delivery.attempts + 1 };
}

/** A failed (or recipient-less) delivery queued again, to `to` when given, its attempts counted from 0. */
export function requeued(delivery: Delivery, to: string | undefined): Delivery {
  return { ...delivery, status: 'queued', attempts: 0, to: to ?? delivery.to };
}
