import { currentActor } from '@repo/http-kit';
import type { HistoryEvent } from '../threads/thread-history.js';
import type { Delivery } from './delivery.js';

/** Why a delivery record changed: approve queued it, a worker attempted it, a reviewer requeued it. */
export type DeliveryChange = 'approved' | 'attempted' | 'redelivered';

const EVENT_OF_STATUS = {
  queued: 'queued',
  delivered: 'delivered',
  logged: 'logged',
  failed: 'delivery_failed',
  no_recipient: 'no_recipient',
} as const satisfies Record<Delivery['status'], HistoryEvent['type']>;

/** The history event a change to a delivery record writes beside it (same transaction). */
export function deliveryEvent(
  delivery: Delivery,
  change: DeliveryChange,
  at = new Date().toISOString(),
): HistoryEvent {
  const fields = { at, attempts: delivery.attempts, last_error: delivery.last_error };
  if (change === 'redelivered') return { type: 'redelivered', actor: currentActor(), ...fields };
  return { type: EVENT_OF_STATUS[delivery.status], actor: 'system', ...fields };
}
