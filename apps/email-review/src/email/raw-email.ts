import { HttpError } from '@repo/http-kit';
import { simpleParser, type AddressObject } from 'mailparser';
import { storableText } from '../workflow/model-text.js';
import { formatMailbox } from './mailbox.js';
import {
  messageIdSchema,
  REFERENCES_MAX,
  SUBJECT_MAX_CHARS,
  type ThreadEmail,
} from './thread-email.js';

/** The largest raw message accepted (the app's body limit). */
export const RAW_EMAIL_MAX_BYTES = 1024 * 1024;
/** The longest inbound email (raw or JSON), draft or instruction text accepted. */
export const TEXT_MAX_CHARS = 100_000;

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

/** A decoded header, made storable and one line: encoded-words may carry NUL or CR LF. */
const headerText = (text: string) =>
  storableText(text)
    .replace(/\s*[\r\n]+\s*/g, ' ')
    .trim();

/** The first mailbox with a storable address, its display name cleaned as a header is. */
function firstMailbox(field: AddressObject | AddressObject[] | undefined): string | null {
  const value = (Array.isArray(field) ? field : field ? [field] : []).flatMap((f) => f.value);
  const first = value.find(
    (mailbox) => mailbox.address && storableText(mailbox.address) === mailbox.address,
  );
  if (!first?.address) return null;
  return formatMailbox({ name: headerText(first.name), address: first.address });
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
 * decoded, and the headers the reply needs. Attachments are not kept, only their names. Every text
 * is made storable (no NUL, no lone surrogate: PostgreSQL's jsonb refuses both) and the headers one
 * line each, as a JSON `inbound` is checked at the schema.
 */
export async function parseRawEmail(raw: Buffer): Promise<InboundEmail> {
  // mailparser refuses some messages outright (over 1,000 MIME parts, a part's header over 1 MB):
  // the message is unreadable, as one without text is, not a fault of the service.
  const parsed = await simpleParser(raw, { skipTextToHtml: true, skipTextLinks: true }).catch(
    (error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      throw new UnreadableEmail(`The message's MIME structure cannot be read: ${reason}.`);
    },
  );
  const inbound = storableText(parsed.text ?? '')
    .replace(/\r\n/g, '\n')
    .trim();
  if (!inbound)
    throw new UnreadableEmail('The message has no readable text (no text part, or an empty one).');
  if (inbound.length > TEXT_MAX_CHARS)
    throw new UnreadableEmail(`The message's text is over ${TEXT_MAX_CHARS} characters.`);
  const messageId = parsed.messageId ? messageIdSchema.safeParse(parsed.messageId) : undefined;
  return {
    inbound,
    email: {
      from: firstMailbox(parsed.from),
      to: firstMailbox(parsed.to),
      subject:
        Array.from(headerText(parsed.subject ?? ''))
          .slice(0, SUBJECT_MAX_CHARS)
          .join('') || null,
      message_id: messageId?.success ? messageId.data : null,
      // A client that sets In-Reply-To alone (no References) still names the message it answers.
      references: messageIds([...toList(parsed.references), ...toList(parsed.inReplyTo)]),
      attachments: parsed.attachments.map(
        (attachment) => headerText(attachment.filename ?? '') || '(unnamed)',
      ),
    },
  };
}
