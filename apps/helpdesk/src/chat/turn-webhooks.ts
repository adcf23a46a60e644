import { currentActor } from '@repo/http-kit';
import type { Outbox, WebhookEvent } from '@repo/webhooks';
import type { TurnErrorCode } from './turn-errors.js';

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

/** `turn.failed`: a message of this session got no reply (the 502/504 its client got). */
export const turnFailed = (
  webhooks: TurnWebhooks,
  turn: { sessionId: string; code: TurnErrorCode; ticketId?: string | undefined; message: string },
): WebhookEvent =>
  turnEvent('turn.failed', webhooks, turn, {
    session_id: turn.sessionId,
    code: turn.code,
    ...(turn.ticketId ? { ticket_id: turn.ticketId } : {}),
  });
