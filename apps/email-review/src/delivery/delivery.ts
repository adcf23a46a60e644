import { currentActor } from '@repo/http-kit';
import { z } from 'zod';
import { parseMailbox } from '../email/mailbox.js';
import type { HistoryEvent } from '../threads/thread-history.js';
import type { Thread } from '../threads/thread.js';

/**
 * `no_recipient`: approved with no address to reply to, nothing queued (redeliver with `to` sends it);
 * `logged`: written to the service's log instead of SMTP (no SMTP_URL).
 */
export const deliveryStatusSchema = z.enum([
  'queued',
  'delivered',
  'logged',
  'failed',
  'no_recipient',
]);
export type DeliveryStatus = z.infer<typeof deliveryStatusSchema>;

/** The reply as it leaves: the same on every attempt (its Message-ID above all). */
export interface OutgoingMessage {
  thread_id: string;
  message_id: string;
  /** Null when the thread had no address to reply to (`no_recipient`). */
  to: string | null;
  from: string | null;
  subject: string;
  in_reply_to: string | null;
  references: string[];
  /** The approved draft, exactly. */
  body: string;
}

/** Who replies: MAIL_FROM (null with log delivery and no MAIL_FROM). */
export type ReplySender = Pick<OutgoingMessage, 'from'>;

/** `Re: ` once, whatever reply prefixes the subject already carries (Re:, RE:, Re[2]:, AW:, SV:). */
function replySubject(subject: string | null): string {
  const bare = (subject ?? '').replace(/^(\s*(re|aw|sv)(\[\d+\])?\s*:\s*)+/i, '').trim();
  return `Re: ${bare || 'your email'}`;
}

/** The reply's own Message-ID: derived from the thread, so every attempt sends the same one. */
function replyMessageId(threadId: string, sender: ReplySender): string {
  const domain =
    (sender.from && parseMailbox(sender.from)?.address.split('@')[1]) || 'email-review.invalid';
  return `<reply-${threadId}@${domain}>`;
}

/** The thread whose reply carried this Message-ID (see replyMessageId), if it is one of ours. */
export function threadIdOfReply(messageId: string): string | undefined {
  return /^<reply-([0-9a-f-]{36})@[^<>\s]+>$/.exec(messageId)?.[1];
}

/** The approved draft as an email answering the thread's: threaded with In-Reply-To and References. */
export function replyMessage(
  thread: Thread,
  body: string,
  to: string | null,
  sender: ReplySender,
): OutgoingMessage {
  const original = thread.email.message_id;
  return {
    thread_id: thread.thread_id,
    message_id: replyMessageId(thread.thread_id, sender),
    to,
    from: sender.from,
    subject: replySubject(thread.email.subject),
    in_reply_to: original,
    references: original ? [...thread.email.references, original] : [...thread.email.references],
    body,
  };
}

/** The record an approval creates: queued, or `no_recipient` when there is no address to send to. */
export function newDelivery(message: OutgoingMessage): Delivery {
  return {
    ...message,
    status: message.to ? 'queued' : 'no_recipient',
    attempts: 0,
    last_error: null,
    delivered_at: null,
    last_response: null,
  };
}

/** A sent thread's delivery, as the API shows it. */
export const deliveryViewSchema = z.object({
  status: deliveryStatusSchema.describe(
    '`queued` until the SMTP server accepts it (`delivered`) or refuses it for good (`failed`); `logged` when no SMTP server is configured (the log line is the delivery); `no_recipient` when the thread had no address to reply to (nothing sent: redeliver with `to`).',
  ),
  attempts: z.number().int().min(0).describe('SMTP attempts since it was last queued.'),
  message_id: z.string().describe('The reply’s own Message-ID, the same on every attempt.'),
  to: z.string().nullable().describe('The recipient (null with `no_recipient`).'),
  last_error: z.string().nullable(),
  last_response: z
    .string()
    .nullable()
    .describe(
      'The SMTP server’s last reply: its acceptance or its refusal; null before it answered.',
    ),
  delivered_at: z.iso.datetime().nullable(),
});
type DeliveryView = z.infer<typeof deliveryViewSchema>;

/** One thread's delivery record: the message, and where its delivery stands. */
export type Delivery = OutgoingMessage & DeliveryView;

export function deliveryView(delivery: Delivery): DeliveryView {
  const { status, attempts, message_id, to, last_error, last_response, delivered_at } = delivery;
  return { status, attempts, message_id, to, last_error, last_response, delivered_at };
}

/** Why a delivery record changed: approve queued it, a worker attempted it, a reviewer requeued it. */
export type DeliveryChange = 'approved' | 'attempted' | 'redelivered';

const EVENT_OF_STATUS = {
  queued: 'queued',
  delivered: 'delivered',
  logged: 'logged',
  failed: 'delivery_failed',
  no_recipient: 'no_recipient',
} as const satisfies Record<DeliveryStatus, HistoryEvent['type']>;

/** The history event a change to a delivery record writes beside it (same transaction). */
export function deliveryEvent(
  delivery: Delivery,
  change: DeliveryChange,
  at = new Date().toISOString(),
): HistoryEvent {
  const fields = { at, attempts: delivery.attempts, last_error: delivery.last_error };
  if (change === 'redelivered') return { type: 'redelivered', actor: currentActor(), ...fields };
  return { type: EVENT_OF_STATUS[delivery.status], actor: 'system', ...fields };
}
