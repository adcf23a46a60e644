import type { Delivery } from './delivery.js';
import type { DeliveryOutcome } from './delivery-store.js';

/** The record after an attempt: attempts + 1, and the outcome's fields. */
export function applyOutcome(delivery: Delivery, outcome: DeliveryOutcome): Delivery {
  return { ...delivery, ...outcome, attempts: delivery.attempts + 1 };
}

/** A failed (or recipient-less) delivery queued again, to `to` when given, its attempts counted from 0. */
export function requeued(delivery: Delivery, to: string | undefined): Delivery {
  return { ...delivery, status: 'queued', attempts: 0, to: to ?? delivery.to };
}
