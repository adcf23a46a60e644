import { modelCallMetrics } from '@repo/http-kit';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { DeliveryStore } from '../delivery/delivery-store.js';
import type { Persistence } from '../persistence/persistence.js';
import { THREAD_STATUSES } from '../threads/thread.js';
import { indexCounts } from './index-counts.js';
import { observedDeliveries } from './observed-deliveries.js';

/**
 * email-review's own metrics in `registry` (see the README's Metrics section): what feeds them —
 * the model calls' report, and the delivery store wrapped — and gauges read from
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
    help: 'Delivery attempts by outcome: delivered, logged (no SMTP), deferred (transient failure, retried later), failed (for good).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const recordModelCall = modelCallMetrics(registry);
  return {
    recordModelCall,
    deliveries: (store: DeliveryStore) => observedDeliveries(store, deliveryAttempts),
  };
}
