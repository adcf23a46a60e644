import { HttpError } from '@repo/http-kit';
import { simpleParser, type AddressObject } from 'mailparser';
import { formatMailbox } from './mailbox.js';
import {
  messageIdSchema,
  REFERENCES_MAX,
  SUBJECT_MAX_CHARS,
  type ThreadEmail,
} from './thread-email.js';

/** The largest raw message accepted (the app's body limit). */
export const RAW_EMAIL_MAX_BYTES = 1024 * 1024;
/** The same bound as a JSON `inbound`. */
const INBOUND_MAX_CHARS = 100_000;

export interface InboundEmail {
  inbound: string;
  email: ThreadEmail;
}

/** A raw message the service cannot take: 400 with what is wrong. */
export class UnreadableEmail extends HttpError {
  constructor(detail: string) {
    super(400, 'unreadable_email', detail);
  }
}

function firstMailbox(field: AddressObject | AddressObject[] | undefined): string | null {
  const value = (Array.isArray(field) ? field : field ? [field] : []).flatMap((f) => f.value);
  const first = value.find((mailbox) => mailbox.address);
  return first?.address ? formatMailbox({ name: first.name, address: first.address }) : null;
}

const toList = (ids: string | string[] | undefined) =>
  typeof ids === 'string' ? ids.split(/\s+/) : (ids ?? []);

function messageIds(list: string[]): string[] {
  const ids = list
    .map((id) => messageIdSchema.safeParse(id))
    .flatMap((parsed) => (parsed.success ? [parsed.data] : []));
  return [...new Set(ids)].slice(-REFERENCES_MAX);
}

/**
 * An RFC 5322 message, parsed by mailparser: its text part (or its HTML part as text), any charset
 * decoded, and the headers the reply needs. Attachments are not kept, only their names.
 */
export async function parseRawEmail(raw: Buffer): Promise<InboundEmail> {
  const parsed = await simpleParser(raw, { skipTextToHtml: true, skipTextLinks: true });
  const inbound = (parsed.text ?? '').replace(/\r\n/g, '\n').replaceAll('\u0000', '').trim();
  if (!inbound)
    throw new UnreadableEmail('The message has no readable text (no text part, or an empty one).');
  if (inbound.length > INBOUND_MAX_CHARS)
    throw new UnreadableEmail(`The message's text is over ${INBOUND_MAX_CHARS} characters.`);
  const messageId = parsed.messageId ? messageIdSchema.safeParse(parsed.messageId) : undefined;
  return {
    inbound,
    email: {
      from: firstMailbox(parsed.from),
      to: firstMailbox(parsed.to),
      subject: parsed.subject?.trim().slice(0, SUBJECT_MAX_CHARS) || null,
      message_id: messageId?.success ? messageId.data : null,
      // A client that sets In-Reply-To alone (no References) still names the message it answers.
      references: messageIds([...toList(parsed.references), ...toList(parsed.inReplyTo)]),
      attachments: parsed.attachments.map((attachment) => attachment.filename ?? '(unnamed)'),
    },
  };
}
