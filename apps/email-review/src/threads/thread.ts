import { z } from 'zod';
import { deliveryViewSchema } from '../delivery/delivery.js';
import { threadEmailSchema } from '../email/thread-email.js';
import { groundingSchema } from '../knowledge/grounding.js';
import { draftStampSchema } from '../quality/draft-stamp.js';
import { categorySchema, urgencySchema } from '../workflow/classification.js';

export const THREAD_STATUSES = [
  'drafting',
  'awaiting_review',
  'sent',
  'rejected',
  'failed',
] as const;
export const threadStatusSchema = z.enum(THREAD_STATUSES);
export type ThreadStatus = z.infer<typeof threadStatusSchema>;

/** Threads by status, as `count` gives them. */
export const countsByStatus = (count: (status: ThreadStatus) => number) =>
  Object.fromEntries(THREAD_STATUSES.map((status) => [status, count(status)])) as Record<
    ThreadStatus,
    number
  >;

export const threadErrorSchema = z.object({
  code: z.string().describe('Stable machine-readable reason, e.g. `llm_unavailable`.'),
  message: z.string(),
});
export type ThreadError = z.infer<typeof threadErrorSchema>;

/** A thread as the API returns it (and as the thread index stores it). */
export const threadSchema = z.object({
  thread_id: z.string(),
  status: threadStatusSchema,
  inbound: z.string(),
  email: threadEmailSchema,
  classification: z
    .object({ category: categorySchema, urgency: urgencySchema, summary: z.string() })
    .nullable(),
  draft: z
    .string()
    .nullable()
    .describe('The current draft reply (after sending: the text that was sent).'),
  grounding: groundingSchema.nullable().optional(),
  drafted_with: draftStampSchema
    .nullable()
    .optional()
    .describe(
      'The latest model draft: its model, pipeline version, time, text and the reviewer guidelines it was given.',
    ),
  revision: z
    .number()
    .int()
    .min(0)
    .describe('How many drafts there have been: model drafts and text edits.'),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
  sent_at: z.iso.datetime().nullable(),
  error: threadErrorSchema.nullable().describe('Why the thread is `failed`; null otherwise.'),
  delivery: deliveryViewSchema.nullable().describe('The reply’s delivery once sent; null before.'),
  previous_thread_id: z
    .string()
    .optional()
    .describe(
      'Present when this email answers a reply the service sent (its In-Reply-To or References names that reply): the earlier thread, whose exchange the drafter was given.',
    ),
});
export type Thread = z.infer<typeof threadSchema>;
