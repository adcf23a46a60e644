import { modelCallMetrics } from '@repo/http-kit';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { DeliveryOutcome } from '../delivery/delivery-store.js';
import type { ThreadStore } from '../threads/thread-store.js';
import { THREAD_STATUSES } from '../threads/thread.js';

/**
 * email-review's own metrics (the README's Metrics section): the model calls' report, delivery
 * attempts counted on the store, and gauges read from the index on each scrape.
 */
export function emailReviewMetrics(registry: Registry, threads: Pick<ThreadStore, 'counts'>) {
  const read = oncePerScrape(() => threads.counts());
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
    recordDeliveryAttempt: (status: DeliveryOutcome['status']) =>
      deliveryAttempts.inc({ outcome: status === 'queued' ? 'deferred' : status }),
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
