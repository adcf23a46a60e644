import type { WebhookEvent } from '@repo/webhooks';
import type { HistoryEvent } from '../threads/thread-history.js';
import type { Thread } from '../threads/thread.js';

/** The webhook event types email-review sends, and the history events each reports. */
export const THREAD_WEBHOOK_TYPES = [
  'thread.awaiting_review',
  'thread.approved',
  'thread.rejected',
  'thread.failed',
  'delivery.delivered',
  'delivery.failed',
] as const;

const links = (threadId: string) => {
  const thread = `/threads/${encodeURIComponent(threadId)}`;
  return { thread, history: `${thread}/history` };
};

/** What a history event tells the outside world, if anything (a type and its own fields). */
function reported(
  event: HistoryEvent,
  view: Thread,
  includeContent: boolean,
): { type: (typeof THREAD_WEBHOOK_TYPES)[number]; fields: Record<string, unknown> } | undefined {
  switch (event.type) {
    case 'drafted':
    case 'redrafted':
      if (view.status !== 'awaiting_review') return undefined;
      return {
        type: 'thread.awaiting_review',
        fields: { revision: event.revision, ...(includeContent ? { draft: view.draft } : {}) },
      };
    case 'approved':
      return {
        type: 'thread.approved',
        fields: { revision: event.revision, delivery: view.delivery?.status ?? null },
      };
    case 'rejected':
      return {
        type: 'thread.rejected',
        fields: includeContent ? { reason: event.reason } : {},
      };
    case 'failed':
      return { type: 'thread.failed', fields: { code: event.code } };
    case 'delivered':
    case 'logged':
    case 'delivery_failed':
    case 'no_recipient':
      return {
        type:
          event.type === 'delivered' || event.type === 'logged'
            ? 'delivery.delivered'
            : 'delivery.failed',
        fields: {
          delivery: {
            status: view.delivery?.status ?? null,
            attempts: event.attempts,
            last_error: event.last_error,
            ...(includeContent ? { to: view.delivery?.to ?? null } : {}),
          },
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
    const found = reported(event, view, includeContent);
    if (!found) continue;
    events.push({
      type: found.type,
      subject: view.thread_id,
      timestamp: new Date(event.at),
      data: {
        thread_id: view.thread_id,
        status: view.status,
        revision: view.revision,
        actor: event.actor,
        ...found.fields,
        links: links(view.thread_id),
      },
    });
  }
  return events;
}
