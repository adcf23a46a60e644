import { currentActor } from '@repo/http-kit';
import type { Outbox, WebhookEvent } from '@repo/webhooks';
import type { TurnErrorCode, TurnFailedError } from './turn-errors.js';

/** Where the chat service reports its turns, and whether payloads may carry chat text. */
export interface TurnWebhooks {
  outbox: Outbox;
  /** WEBHOOK_INCLUDE_CONTENT: the message (and the ticket's summary) in the payload. */
  includeContent: boolean;
}

/** A turn's event: its session, who asked, and the message when payloads may carry it. */
function turnEvent(
  type: WebhookEvent['type'],
  webhooks: TurnWebhooks,
  turn: { sessionId: string; message: string },
  data: Record<string, unknown>,
): WebhookEvent {
  const { sessionId, message } = turn;
  return {
    type,
    subject: sessionId,
    data: {
      ...data,
      actor: currentActor(),
      links: { session: `/sessions/${encodeURIComponent(sessionId)}` },
      ...(webhooks.includeContent ? { message } : {}),
    },
  };
}

/** `ticket.created`: the escalation agent opened a ticket in a turn of this session. */
export const ticketCreated = (
  webhooks: TurnWebhooks,
  turn: { sessionId: string; ticketId: string; message: string },
): WebhookEvent =>
  turnEvent('ticket.created', webhooks, turn, {
    ticket_id: turn.ticketId,
    session_id: turn.sessionId,
    status: 'open',
  });

/**
 * `turn.failed` (and `ticket.created` if the turn opened one), committed on their own (a failed
 * turn writes nothing) while it holds its session: in order with the next turn. The client hears
 * the turn's own error even if the outbox refuses them.
 */
export async function publishTurnFailed(
  webhooks: TurnWebhooks,
  turn: { sessionId: string; message: string },
  error: TurnFailedError,
): Promise<void> {
  const ticketId = error.extra['ticket_id'] as string | undefined;
  const failed = turnEvent('turn.failed', webhooks, turn, {
    session_id: turn.sessionId,
    code: error.code as TurnErrorCode,
    ...(ticketId ? { ticket_id: ticketId } : {}),
  });
  const events = [...(ticketId ? [ticketCreated(webhooks, { ...turn, ticketId })] : []), failed];
  await webhooks.outbox.publish(events).catch((publishError: unknown) => {
    error.cause = new AggregateError([error.cause, publishError], 'turn.failed not recorded');
  });
}
