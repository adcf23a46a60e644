import { currentActor } from '@repo/http-kit';
import type { Outbox, WebhookEvent } from '@repo/webhooks';
import type { TurnErrorCode } from './turn-errors.js';

/** Where the chat service reports its turns, and whether payloads may carry chat text. */
export interface TurnWebhooks {
  outbox: Outbox;
  /** WEBHOOK_INCLUDE_CONTENT: the message (and the ticket's summary) in the payload. */
  includeContent: boolean;
}

const links = (sessionId: string) => ({ session: `/sessions/${encodeURIComponent(sessionId)}` });

/** `ticket.created`: the escalation agent opened a ticket in a turn of this session. */
export function ticketCreated(
  webhooks: TurnWebhooks,
  turn: { sessionId: string; ticketId: string; message: string },
): WebhookEvent {
  return {
    type: 'ticket.created',
    subject: turn.sessionId,
    data: {
      ticket_id: turn.ticketId,
      session_id: turn.sessionId,
      status: 'open',
      actor: currentActor(),
      links: links(turn.sessionId),
      ...(webhooks.includeContent ? { message: turn.message } : {}),
    },
  };
}

/** `turn.failed`: a message of this session got no reply (the 502/504 its client got). */
export function turnFailed(
  webhooks: TurnWebhooks,
  turn: { sessionId: string; code: TurnErrorCode; ticketId?: string | undefined; message: string },
): WebhookEvent {
  return {
    type: 'turn.failed',
    subject: turn.sessionId,
    data: {
      session_id: turn.sessionId,
      code: turn.code,
      ...(turn.ticketId ? { ticket_id: turn.ticketId } : {}),
      actor: currentActor(),
      links: links(turn.sessionId),
      ...(webhooks.includeContent ? { message: turn.message } : {}),
    },
  };
}
