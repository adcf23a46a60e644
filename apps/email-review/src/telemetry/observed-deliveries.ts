import type { Counter } from 'prom-client';
import type { DeliveryOutcome, DeliveryStore } from '../delivery/delivery-store.js';

const OUTCOME_LABEL: Record<DeliveryOutcome['status'], string> = {
  delivered: 'delivered',
  logged: 'logged',
  queued: 'deferred',
  failed: 'failed',
};

/**
 * The delivery store, with each attempt's outcome counted: `delivered`, `logged` (no SMTP),
 * `deferred` (a transient failure, retried later) or `failed` (for good). Every other call goes straight through.
 */
export function observedDeliveries(
  store: DeliveryStore,
  attempts: Counter<'outcome'>,
): DeliveryStore {
  return {
    commitApproval: (...args) => store.commitApproval(...args),
    get: (threadId) => store.get(threadId),
    attempt: (threadId, attempt) =>
      store.attempt(threadId, async (delivery) => {
        const outcome = await attempt(delivery);
        attempts.inc({ outcome: OUTCOME_LABEL[outcome.status] });
        return outcome;
      }),
    redeliver: (threadId, to) => store.redeliver(threadId, to),
    start: (handler) => store.start(handler),
    stop: () => store.stop(),
  };
}
