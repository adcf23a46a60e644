import { z } from 'zod';
import { threadSchema, threadStatusSchema } from '../threads/thread.js';

export const INBOUND_MAX_CHARS = 100_000;
const TEXT_MAX_CHARS = 100_000;

const nonBlank = (max: number) =>
  z
    .string()
    .max(max)
    .refine((text) => text.trim().length > 0, 'must not be empty');

export const createThreadBody = z.strictObject({
  inbound: nonBlank(INBOUND_MAX_CHARS).describe('The inbound email, as plain text.'),
});

/** Exactly one of the two: the reviewer's own text, or instructions for a redraft. */
export const editThreadBody = z.union([
  z.strictObject({
    draft: nonBlank(TEXT_MAX_CHARS).describe("The reviewer's text replaces the draft."),
  }),
  z.strictObject({
    instructions: nonBlank(TEXT_MAX_CHARS).describe(
      'The draft step runs again with these instructions.',
    ),
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
