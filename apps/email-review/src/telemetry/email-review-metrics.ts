import { modelCallMetrics } from '@repo/http-kit';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { DeliveryStore } from '../delivery/delivery-store.js';
import type { ThreadLocks } from '../locks/thread-locks.js';
import type { Persistence } from '../persistence/persistence.js';
import { THREAD_STATUSES } from '../threads/thread.js';
import { indexCounts } from './index-counts.js';
import { observedDeliveries } from './observed-deliveries.js';
import { observedLocks } from './observed-locks.js';

const LOCK_WAIT_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5];

/**
 * email-review's own metrics in `registry` (see the README's Metrics section): what feeds them —
 * the model calls' report, the thread locks and the delivery store wrapped — and gauges read from
 * the index on each scrape.
 */
export function emailReviewMetrics(registry: Registry, persistence: Persistence) {
  const counts = indexCounts(persistence);
  // One read of the index per scrape, shared by the two gauges it feeds. With the database away
  // (or not set up yet) the scrape still answers: the gauges keep their last values.
  let reading: Promise<Awaited<ReturnType<typeof counts>> | undefined> | undefined;
  const read = () => {
    reading ??= counts()
      .catch(() => undefined)
      .finally(() => setImmediate(() => (reading = undefined)));
    return reading;
  };
  new Gauge({
    name: 'email_review_threads',
    help: 'Threads in the index by status (drafting, awaiting_review, sent, rejected, failed).',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      const counted = await read();
      if (counted)
        for (const status of THREAD_STATUSES) this.set({ status }, counted.threads[status]);
    },
  });
  new Gauge({
    name: 'email_review_delivery_queue_depth',
    help: 'Approved replies waiting to be delivered (queued, including those waiting for a retry).',
    registers: [registry],
    async collect() {
      const counted = await read();
      if (counted) this.set(counted.queuedDeliveries);
    },
  });
  const deliveryAttempts = new Counter({
    name: 'email_review_delivery_attempts_total',
    help: 'Delivery attempts by outcome: delivered, deferred (transient failure, retried later), failed (for good).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const lockWait = new Histogram({
    name: 'email_review_lock_wait_seconds',
    help: "Time taken by a request's change to get its thread's lease (or be refused it), by outcome: acquired, busy, unavailable, error.",
    labelNames: ['outcome'] as const,
    buckets: LOCK_WAIT_BUCKETS,
    registers: [registry],
  });
  const lockRefusals = new Counter({
    name: 'email_review_lock_refusals_total',
    help: "Requests' changes refused their thread lease: busy (another change holds it, 409), unavailable (database away, 503).",
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  const recordModelCall = modelCallMetrics(registry);
  return {
    recordModelCall,
    locks: (locks: ThreadLocks) => observedLocks(locks, { wait: lockWait, refusals: lockRefusals }),
    deliveries: (store: DeliveryStore) => observedDeliveries(store, deliveryAttempts),
  };
}
