import { z } from 'zod';
import { threadSchema, threadStatusSchema } from '../threads/thread.js';

/** The longest inbound email, draft or instruction text accepted. */
export const TEXT_MAX_CHARS = 100_000;

/**
 * Client text. NUL and unpaired surrogates are refused here: PostgreSQL cannot store either in
 * `text`/`jsonb`, and finding out halfway through a change would leave the thread half-changed.
 */
const clientText = () =>
  z
    .string()
    .max(TEXT_MAX_CHARS)
    .refine((text) => text.trim().length > 0, 'must not be empty')
    .refine((text) => !text.includes('\u0000'), 'must not contain NUL characters')
    // In a `u` regex a lone surrogate is a code point of category Cs; a valid pair is not.
    .refine((text) => !/\p{Cs}/u.test(text), 'must be well-formed Unicode (no lone surrogates)');

export const createThreadBody = z.strictObject({
  inbound: clientText().describe('The inbound email, as plain text.'),
});

/** Exactly one of the two: the reviewer's own text, or instructions for a redraft. */
export const editThreadBody = z.union([
  z.strictObject({
    draft: clientText().describe("The reviewer's text replaces the draft."),
  }),
  z.strictObject({
    instructions: clientText().describe('The draft step runs again with these instructions.'),
  }),
]);

/** Approve, reject and retry take no input: no body, or an empty JSON object. */
export const emptyBody = z.strictObject({});

/** Thread ids are UUIDs; anything outside this shape is refused (400) before it reaches a store. */
export const threadParams = z.object({
  thread_id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'is not a thread id'),
});

export const listThreadsQuery = z.object({
  status: threadStatusSchema.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(200).optional().describe('`next_cursor` of the previous page.'),
});

export const idempotencyKeyHeader = z
  .string()
  .regex(/^[\x21-\x7e]{1,200}$/, 'must be 1-200 visible ASCII characters');

export const threadListSchema = z.object({
  items: z.array(threadSchema),
  next_cursor: z.string().nullable(),
});
