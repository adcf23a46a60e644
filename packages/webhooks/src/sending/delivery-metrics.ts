import { Counter, Histogram, type Registry } from 'prom-client';
import type { AttemptResult } from './send-attempt.js';

export interface DeliveryMetrics {
  attempt(endpoint: string, result: AttemptResult, seconds: number): void;
  settled(endpoint: string, status: 'delivered' | 'failed'): void;
}

const BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** Attempts, their latency, and settled deliveries per endpoint (labelled by endpoint id, never URL). */
export function deliveryMetrics(registry: Registry | undefined): DeliveryMetrics {
  if (!registry) return { attempt: () => undefined, settled: () => undefined };
  const attempts = new Counter({
    name: 'webhook_attempts_total',
    help: 'Webhook attempts by endpoint and result (delivered, retry, stop).',
    labelNames: ['endpoint', 'result'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'webhook_attempt_duration_seconds',
    help: 'Time from the start of a webhook attempt to its answer, error or timeout, by endpoint.',
    labelNames: ['endpoint'] as const,
    buckets: BUCKETS,
    registers: [registry],
  });
  const deliveries = new Counter({
    name: 'webhook_deliveries_total',
    help: 'Webhook deliveries settled, by endpoint and status (delivered = sent, failed).',
    labelNames: ['endpoint', 'status'] as const,
    registers: [registry],
  });
  return {
    attempt: (endpoint, result, seconds) => {
      attempts.inc({ endpoint, result: result.kind });
      duration.observe({ endpoint }, seconds);
    },
    settled: (endpoint, status) => deliveries.inc({ endpoint, status }),
  };
}
