import { modelCallMetrics } from '@repo/http-kit';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { DeliveryStore } from '../delivery/delivery-store.js';
import type { Persistence } from '../persistence/persistence.js';
import { THREAD_STATUSES } from '../threads/thread.js';
import { indexCounts } from './index-counts.js';

/**
 * email-review's own metrics (the README's Metrics section): the model calls' report, delivery
 * attempts counted on the store, and gauges read from the index on each scrape.
 */
export function emailReviewMetrics(registry: Registry, persistence: Persistence) {
  const read = oncePerScrape(indexCounts(persistence));
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

/**
 * One read per scrape, shared by the gauges it feeds. With the database away (or not set up yet)
 * the read is undefined and the scrape still answers: the gauges keep their last values.
 */
export function oncePerScrape<T>(read: () => Promise<T>): () => Promise<T | undefined> {
  let reading: Promise<T | undefined> | undefined;
  return () =>
    (reading ??= read()
      .catch(() => undefined)
      .finally(() => setImmediate(() => (reading = undefined))));
}

/**
 * The delivery store, with each attempt's outcome counted: `delivered`, `logged` (no SMTP),
 * `deferred` (a transient failure, retried later) or `failed` (for good).
 */
function observedDeliveries(store: DeliveryStore, attempts: Counter<'outcome'>): DeliveryStore {
  return {
    commitApproval: (...args) => store.commitApproval(...args),
    get: (threadId) => store.get(threadId),
    attempt: (threadId, attempt) =>
      store.attempt(threadId, async (delivery) => {
        const outcome = await attempt(delivery);
        attempts.inc({ outcome: outcome.status === 'queued' ? 'deferred' : outcome.status });
        return outcome;
      }),
    redeliver: (threadId, to) => store.redeliver(threadId, to),
    start: (handler) => store.start(handler),
    stop: () => store.stop(),
  };
}
