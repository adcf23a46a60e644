import type { OutgoingMessage } from '../delivery/delivery.js';
import type { Thread } from '../threads/thread.js';
import { parseMailbox } from './mailbox.js';

/** Who replies: MAIL_FROM (null with log delivery and no MAIL_FROM). */
export interface ReplySender {
  from: string | null;
}

/** `Re: ` once, whatever reply prefixes the subject already carries (Re:, RE:, Re[2]:, AW:, SV:). */
export function replySubject(subject: string | null): string {
  const bare = (subject ?? '').replace(/^(\s*(re|aw|sv)(\[\d+\])?\s*:\s*)+/i, '').trim();
  return `Re: ${bare || 'your email'}`;
}

/** The reply's own Message-ID: derived from the thread, so every attempt sends the same one. */
export function replyMessageId(threadId: string, sender: ReplySender): string {
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
