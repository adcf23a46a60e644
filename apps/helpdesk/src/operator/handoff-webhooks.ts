import type { WebhookEvent } from '@repo/webhooks';
import type { Handoff } from './handoffs.js';

export type HandoffWebhookType =
  'conversation.handoff_requested' | 'conversation.taken_over' | 'conversation.handed_back';

/**
 * The webhook of a queue change (subject: the session, so one conversation's events reach an
 * endpoint in order, after its `ticket.created`). `includeContent`: the summary too.
 */
export function handoffWebhook(
  type: HandoffWebhookType,
  entry: Handoff,
  actor: string,
  includeContent: boolean,
): WebhookEvent {
  const waitedMs =
    entry.taken_at === null
      ? {}
      : { waited_ms: Date.parse(entry.taken_at) - Date.parse(entry.requested_at) };
  return {
    type,
    subject: entry.session_id,
    data: {
      session_id: entry.session_id,
      reason: entry.reason,
      ...(entry.ticket_id ? { ticket_id: entry.ticket_id } : {}),
      ...(type === 'conversation.handoff_requested' ? {} : { operator: actor }),
      ...(type === 'conversation.taken_over' ? waitedMs : {}),
      actor,
      links: { session: `/sessions/${encodeURIComponent(entry.session_id)}` },
      ...(includeContent ? { summary: entry.summary } : {}),
    },
  };
}
