import type { Delivery } from './delivery.js';
import type { DeliveryOutcome } from './delivery-store.js';

/** The record after an attempt: attempts + 1, and the outcome's fields. */
export function applyOutcome(delivery: Delivery, outcome: DeliveryOutcome): Delivery {
  const attempted = { ...delivery, attempts: delivery.attempts + 1 };
  switch (outcome.status) {
    case 'delivered':
      return {
        ...attempted,
        status: 'delivered',
        delivered_at: outcome.delivered_at,
        server_reply: outcome.server_reply,
      };
    case 'queued':
      return {
        ...attempted,
        status: 'queued',
        last_error: outcome.last_error,
        next_attempt_at: outcome.next_attempt_at,
      };
    case 'failed':
      return { ...attempted, status: 'failed', last_error: outcome.last_error };
  }
}

/** A failed delivery queued again, due now, its attempts counted from 0. */
export function requeued(delivery: Delivery, at: string): Delivery {
  return { ...delivery, status: 'queued', attempts: 0, next_attempt_at: at };
}
