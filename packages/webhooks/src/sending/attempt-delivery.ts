import type { Logger } from '@repo/http-kit';
import type { Endpoint, WebhookSettings } from '../config/webhook-settings.js';
import type { DeliveryStatus } from '../outbox/outbox.js';
import type { DeliveryMetrics } from './delivery-metrics.js';
import { nextAttemptAt } from './retry-schedule.js';
import { sendAttempt } from './send-attempt.js';

export interface PendingDelivery {
  id: string;
  body: string;
  type: string;
  subject: string;
  attempts: number;
  created_at: Date;
}

/** A delivery's state after one more attempt. */
export interface AttemptedDelivery {
  status: DeliveryStatus;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  next_attempt_at: Date | null;
  delivered_at: Date | null;
}

export interface AttemptDeps {
  settings: WebhookSettings;
  metrics: DeliveryMetrics;
  logger: Logger;
}

/** Sends one attempt of a delivery and says where it stands after it (memory and PostgreSQL alike). */
export async function attemptDelivery(
  deps: AttemptDeps,
  endpoint: Endpoint,
  delivery: PendingDelivery,
): Promise<AttemptedDelivery> {
  const { settings } = deps;
  const started = process.hrtime.bigint();
  const result = await sendAttempt({
    url: endpoint.url,
    secret: endpoint.secret,
    messageId: delivery.id,
    body: delivery.body,
    timeoutMs: settings.timeoutMs,
    allowPrivate: settings.allowPrivate,
  });
  deps.metrics.attempt(endpoint.id, result, Number(process.hrtime.bigint() - started) / 1e9);
  const attempts = delivery.attempts + 1;
  const lastStatus = result.status ?? null;
  const now = new Date();
  const log = {
    webhook_id: delivery.id,
    endpoint: endpoint.id,
    type: delivery.type,
    attempts,
    status: lastStatus,
  };
  if (result.kind === 'delivered') {
    deps.metrics.settled(endpoint.id, 'delivered');
    deps.logger.debug(log, 'webhook delivered');
    return {
      status: 'delivered',
      attempts,
      last_status: lastStatus,
      last_error: null,
      next_attempt_at: null,
      delivered_at: now,
    };
  }
  const next =
    result.kind === 'retry'
      ? nextAttemptAt(
          { baseMs: settings.retryBaseMs, retryForMs: settings.retryForMs },
          attempts,
          delivery.created_at,
          now,
        )
      : undefined;
  if (!next) {
    deps.metrics.settled(endpoint.id, 'failed');
    deps.logger.warn({ ...log, error: result.error }, 'webhook delivery failed');
  } else {
    deps.logger.info(
      { ...log, error: result.error, next_attempt_at: next },
      'webhook attempt failed; retrying',
    );
  }
  return {
    status: next ? 'pending' : 'failed',
    attempts,
    last_status: lastStatus,
    last_error: result.error,
    next_attempt_at: next ?? null,
    delivered_at: null,
  };
}
