import {
  deliveryMetrics,
  noWebhooks,
  type DeliveryMetrics,
  type Outbox,
  type TransactionClient,
  type WebhookSettings,
} from '@repo/webhooks';
import type { Logger } from 'pino';
import type { HistoryEvent } from '../threads/thread-history.js';
import type { Thread } from '../threads/thread.js';
import { isReported, threadWebhookEvents } from './thread-webhook-events.js';

/**
 * Where the thread index and the deliveries hand what they write: the history events become the
 * webhook events they report, committed by `transaction` (PostgreSQL) with the write itself.
 */
export interface ThreadWebhooks {
  /** Whether these history events report anything to a configured endpoint. */
  reports(history: readonly HistoryEvent[]): boolean;
  publish(
    view: Thread,
    history: readonly HistoryEvent[],
    transaction?: TransactionClient,
  ): Promise<void>;
}

/**
 * What the thread index and the deliveries hand their writes' history to; none when the outbox has
 * no endpoints (WEBHOOK_*), so that a write then builds and calls nothing for webhooks.
 */
export function threadWebhooks(
  outbox: Outbox,
  options: WebhookOptions | undefined,
): ThreadWebhooks | undefined {
  if (!outbox.enabled) return undefined;
  const includeContent = options?.settings.includeContent ?? false;
  return {
    reports: (history) => history.some(isReported),
    publish: async (view, history, transaction) => {
      const events = threadWebhookEvents(view, history, includeContent);
      if (events.length > 0) await outbox.publish(events, transaction);
    },
  };
}

/** The service's webhook settings (WEBHOOK_*) and where their metrics go. */
export interface WebhookOptions {
  settings: WebhookSettings;
  metrics?: DeliveryMetrics;
}

/** What a persistence needs to build its outbox: the settings (none: no endpoints) and a logger. */
export function outboxDeps(options: WebhookOptions | undefined, logger: Logger) {
  return {
    settings: options?.settings ?? noWebhooks(),
    metrics: options?.metrics ?? deliveryMetrics(undefined),
    logger,
  };
}
