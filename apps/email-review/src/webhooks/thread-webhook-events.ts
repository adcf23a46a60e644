import type { WebhookEvent } from '@repo/webhooks';
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

/** Whether a history event is one a webhook reports. */
export const isReported = (event: HistoryEvent) => Object.hasOwn(WEBHOOK_TYPE, event.type);

const links = (threadId: string) => {
  const thread = `/threads/${encodeURIComponent(threadId)}`;
  return { thread, history: `${thread}/history` };
};

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
 * The webhook events a write reports: `history` is what the write appends to the thread's
 * history, `view` the thread as the write leaves it. Payloads carry ids, status, revision, actor
 * and links; the draft, a rejection's reason and the recipient only with `includeContent`.
 */
export function threadWebhookEvents(
  view: Thread,
  history: readonly HistoryEvent[],
  includeContent: boolean,
): WebhookEvent[] {
  const events: WebhookEvent[] = [];
  for (const event of history) {
    const fields = fieldsOf(event, view, includeContent);
    if (!fields) continue;
    events.push({
      type: WEBHOOK_TYPE[event.type as keyof typeof WEBHOOK_TYPE],
      subject: view.thread_id,
      timestamp: new Date(event.at),
      data: {
        thread_id: view.thread_id,
        status: view.status,
        revision: view.revision,
        actor: event.actor,
        ...fields,
        links: links(view.thread_id),
      },
    });
  }
  return events;
}
