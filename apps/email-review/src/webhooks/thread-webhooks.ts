import {
  deliveryMetrics,
  noWebhooks,
  type DeliveryMetrics,
  type Outbox,
  type TransactionClient,
  type WebhookEvent,
  type WebhookSettings,
} from '@repo/webhooks';
import { createLogger } from '@repo/http-kit';
import type { HistoryEvent } from '../threads/thread-history.js';
import type { Thread } from '../threads/thread.js';

/** The webhook event type each reported history event sends; the others send nothing. */
const WEBHOOK_TYPE = {
  drafted: 'thread.awaiting_review',
  redrafted: 'thread.awaiting_review',
  approved: 'thread.approved',
  rejected: 'thread.rejected',
  failed: 'thread.failed',
  delivered: 'delivery.delivered',
  logged: 'delivery.delivered',
  delivery_failed: 'delivery.failed',
  no_recipient: 'delivery.failed',
} as const satisfies Partial<Record<HistoryEvent['type'], string>>;

/** A reported event's own fields; undefined when the view says it reports nothing after all. */
function fieldsOf(
  event: HistoryEvent,
  view: Thread,
  includeContent: boolean,
): Record<string, unknown> | undefined {
  switch (event.type) {
    case 'drafted':
    case 'redrafted':
      if (view.status !== 'awaiting_review') return undefined;
      return { revision: event.revision, ...(includeContent ? { draft: view.draft } : {}) };
    case 'approved':
      return { revision: event.revision, delivery: view.delivery?.status ?? null };
    case 'rejected':
      return includeContent ? { reason: event.reason } : {};
    case 'failed':
      return { code: event.code };
    case 'delivered':
    case 'logged':
    case 'delivery_failed':
    case 'no_recipient':
      return {
        delivery: {
          status: view.delivery?.status ?? null,
          attempts: event.attempts,
          last_error: event.last_error,
          ...(includeContent ? { to: view.delivery?.to ?? null } : {}),
        },
      };
    default:
      return undefined;
  }
}

/**
 * What the thread index and the deliveries hand their writes' history to, for the webhook events it
 * reports, committed with the write (`transaction`, PostgreSQL). None when the outbox has no
 * endpoints (WEBHOOK_*), so that a write then builds nothing for webhooks. Payloads carry ids,
 * status, revision, actor and links; the draft, a rejection's reason and the recipient only with
 * `includeContent`.
 */
export function threadWebhooks(outbox: Outbox, options: WebhookOptions | undefined) {
  if (!outbox.enabled) return undefined;
  const includeContent = options?.settings.includeContent ?? false;
  return {
    publish: async (
      view: Thread,
      history: readonly HistoryEvent[],
      transaction?: TransactionClient,
    ) => {
      const thread = `/threads/${encodeURIComponent(view.thread_id)}`;
      const events = history.flatMap((event): WebhookEvent[] => {
        const fields = fieldsOf(event, view, includeContent);
        if (!fields) return [];
        return [
          {
            type: WEBHOOK_TYPE[event.type as keyof typeof WEBHOOK_TYPE],
            subject: view.thread_id,
            timestamp: new Date(event.at),
            data: {
              thread_id: view.thread_id,
              status: view.status,
              revision: view.revision,
              actor: event.actor,
              ...fields,
              links: { thread, history: `${thread}/history` },
            },
          },
        ];
      });
      if (events.length > 0) await outbox.publish(events, transaction);
    },
  };
}

export type ThreadWebhooks = NonNullable<ReturnType<typeof threadWebhooks>>;

/** The service's webhook settings (WEBHOOK_*) and where their metrics go. */
export interface WebhookOptions {
  settings: WebhookSettings;
  metrics?: DeliveryMetrics;
}

/** What a persistence needs to build its outbox: the settings (none: no endpoints) and a logger. */
export function outboxDeps(
  options: WebhookOptions | undefined,
  logger = createLogger({ name: 'email-review', level: 'silent' }),
) {
  return {
    settings: options?.settings ?? noWebhooks(),
    metrics: options?.metrics ?? deliveryMetrics(undefined),
    logger,
  };
}
