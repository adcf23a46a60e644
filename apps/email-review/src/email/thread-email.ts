import { z } from 'zod';
import { MAILBOX_MAX_CHARS } from './mailbox.js';

export const SUBJECT_MAX_CHARS = 998;
const MESSAGE_ID_MAX_CHARS = 998;
export const REFERENCES_MAX = 100;

/** `<local@domain>`, the form Message-ID, In-Reply-To and References carry (RFC 5322 msg-id). */
export const messageIdSchema = z
  .string()
  .trim()
  .max(MESSAGE_ID_MAX_CHARS)
  .transform((id) => (id.startsWith('<') ? id : `<${id}>`))
  .refine((id) => /^<[^<>\s@]+@[^<>\s@]+>$/.test(id), 'must be a Message-ID like <id@host>');

/** What the service knows of the inbound email's envelope; nulls when unknown. */
export const threadEmailSchema = z.object({
  from: z.string().max(MAILBOX_MAX_CHARS).nullable().describe("The customer's address."),
  to: z.string().max(MAILBOX_MAX_CHARS).nullable().describe('The address that received it.'),
  subject: z.string().max(SUBJECT_MAX_CHARS).nullable(),
  message_id: z.string().nullable().describe('The Message-ID of the inbound email.'),
  references: z.array(z.string()).describe('Its References header, oldest first.'),
  attachments: z
    .array(z.string())
    .describe('Names of the attachments it had (not kept); their count is the length.'),
});
export type ThreadEmail = z.infer<typeof threadEmailSchema>;

export const UNKNOWN_EMAIL: ThreadEmail = {
  from: null,
  to: null,
  subject: null,
  message_id: null,
  references: [],
  attachments: [],
};
