import { z } from 'zod';
import { REJECT_REASONS, rejectReasonSchema } from '../quality/quality-ledger.js';
import { deliveryStatusSchema } from '../delivery/delivery.js';
import { mailboxSchema } from '../email/mailbox.js';
import { messageIdSchema, REFERENCES_MAX, SUBJECT_MAX_CHARS } from '../email/thread-email.js';
import { threadSchema, threadStatusSchema } from '../threads/thread.js';
import { GROUNDING_STATUSES } from '../knowledge/grounding.js';
import { threadHistorySchema } from '../threads/thread-history.js';
import { classificationSchemaFor, type Labels } from '../workflow/classification.js';
import { TEXT_MAX_CHARS } from '../email/raw-email.js';

/**
 * Client text. NUL and unpaired surrogates are refused here: PostgreSQL cannot store either in
 * `text`/`jsonb`, and finding out halfway through a change would leave the thread half-changed.
 */
const clientText = (maxChars = TEXT_MAX_CHARS) =>
  z
    .string()
    .max(maxChars)
    .refine((text) => text.trim().length > 0, 'must not be empty')
    .refine((text) => !text.includes('\u0000'), 'must not contain NUL characters')
    // In a `u` regex a lone surrogate is a code point of category Cs; a valid pair is not.
    .refine((text) => !/\p{Cs}/u.test(text), 'must be well-formed Unicode (no lone surrogates)');

export const createThreadBody = z.strictObject({
  inbound: clientText().describe('The inbound email, as plain text.'),
  from: mailboxSchema.optional().describe("The customer's address (the reply goes there)."),
  to: mailboxSchema.optional().describe('The address that received the email.'),
  subject: z
    .string()
    .max(SUBJECT_MAX_CHARS)
    .refine((subject) => !/[\r\n]/.test(subject) && !subject.includes('\u0000'), 'must be one line')
    .optional(),
  message_id: messageIdSchema.optional().describe('The Message-ID of the inbound email.'),
  references: z.array(messageIdSchema).max(REFERENCES_MAX).optional(),
});

/** The revision the reviewer saw; a change to any other is refused (409 revision_mismatch). */
const revisionField = z
  .number()
  .int()
  .min(0)
  .optional()
  .describe(
    'The revision the reviewer saw: refused with 409 `revision_mismatch` unless it is the current one. Omitted: the current revision.',
  );

export const approveThreadBody = z
  .strictObject({
    to: mailboxSchema
      .optional()
      .describe("Sets or overrides the recipient (default: the thread's from)."),
    revision: revisionField,
  })
  .optional();

export const redeliverThreadBody = z
  .strictObject({
    to: mailboxSchema
      .optional()
      .describe('Sends to this address (required when the delivery is `no_recipient`).'),
  })
  .optional();

/** The longest rejection reason kept in the history. */
export const REASON_MAX_CHARS = 2_000;

export const rejectThreadBody = z
  .strictObject({
    reason: z
      .union([rejectReasonSchema, clientText(REASON_MAX_CHARS)])
      .optional()
      .describe(
        `Why: one of ${REJECT_REASONS.join(', ')} (counted in GET /quality). Any other text is kept as the note, counted as \`other\`.`,
      ),
    note: clientText(REASON_MAX_CHARS)
      .optional()
      .describe('The reviewer’s words, beside the reason.'),
    revision: revisionField,
  })
  .optional();

/** How many of the edit's two fields a body has (0 for anything but an object). */
const editFieldCount = (body: unknown) =>
  typeof body === 'object' && body
    ? ['draft', 'instructions'].filter((key) => key in body).length
    : 0;

/**
 * Exactly one: the reviewer's own text, or instructions for a redraft. With one of them, zod's own
 * message says what is wrong with it; otherwise the answer says the rule.
 */
export const editThreadBody = z.union(
  [
    z.strictObject({
      draft: clientText().describe("The reviewer's text replaces the draft."),
      revision: revisionField,
    }),
    z.strictObject({
      instructions: clientText().describe('The draft step runs again with these instructions.'),
      revision: revisionField,
    }),
  ],
  {
    error: (issue) =>
      editFieldCount(issue.input) === 1
        ? undefined
        : 'must have exactly one of draft or instructions',
  },
);

/** 1-64 letters, digits, `_` or `-` (the service issues UUIDs); anything else is a 400. */
export const threadParams = z.object({
  thread_id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'is not a thread id'),
});

const listThreadsQuery = z.object({
  status: threadStatusSchema.optional(),
  delivery: deliveryStatusSchema
    .optional()
    .describe('Only sent threads whose delivery is in this state.'),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(200).optional().describe('`next_cursor` of the previous page.'),
});

const labelSchema = z.object({ name: z.string(), description: z.string().optional() });

export const labelsAnswerSchema = z.object({
  categories: z.array(labelSchema).describe('What the classifier chooses from, in order.'),
  urgencies: z.array(labelSchema),
});

/**
 * The thread schemas as this service documents and validates them: the classification's category
 * and urgency enumerate the profile's labels, and the list filters by them.
 */
export function labelledSchemas(labels: Labels) {
  const thread = threadSchema.extend({
    classification: classificationSchemaFor(labels).nullable(),
  });
  const categories = labels.categories.map((label) => label.name) as [string, ...string[]];
  return {
    thread,
    threadList: z.object({ items: z.array(thread), next_cursor: z.string().nullable() }),
    history: threadHistorySchema,
    listQuery: listThreadsQuery.extend({
      category: z.enum(categories).optional().describe('Only threads classified so.'),
      grounding: z
        .enum(GROUNDING_STATUSES)
        .optional()
        .describe(
          'Only threads whose latest model draft is `grounded` in the help center, or `none`: flagged, it cites no article.',
        ),
    }),
  };
}
