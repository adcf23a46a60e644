import { z } from 'zod';
import { problemSchema } from '@repo/http-kit';
import { turnSchema } from '../sessions/transcript.js';

/** One zod schema per edge: it validates, types, and feeds the OpenAPI document. */
const sessionIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9._:-]{1,128}$/, 'must be 1-128 characters of A-Z a-z 0-9 . _ : -')
  .describe('Chosen by the client; the first message of an unknown id creates the session.');

/**
 * A message's text, a customer's or an operator's. One rule for empty and blank alike, so an
 * empty message answers one error, not two.
 */
export const messageTextSchema = z
  .string()
  .max(8000)
  .regex(/\S/, 'must not be blank')
  // PostgreSQL stores neither NUL nor unpaired surrogates; refused in every mode alike. In a
  // `u` regex a lone surrogate is a code point of category Cs; a valid pair is not.
  .refine((text) => !text.includes('\u0000'), 'must not contain NUL characters')
  .refine((text) => !/\p{Cs}/u.test(text), 'must be well-formed Unicode (no lone surrogates)');

export const chatRequestSchema = z.strictObject({
  session_id: sessionIdSchema,
  message: messageTextSchema,
});

export const sessionResponseSchema = z.object({
  session_id: z.string(),
  turns: z.array(turnSchema),
  events_cursor: z
    .number()
    .int()
    .describe(
      'Where GET /sessions/{id}/events?after= continues from (live events of a person’s takeover).',
    ),
});

export const sessionParamsSchema = z.object({ session_id: sessionIdSchema });

/** The public widget's proof of a session it started (POST /widget/sessions). */
export const widgetTokenHeader = {
  'X-Widget-Token': {
    description:
      'Without a bearer token (WIDGET_PUBLIC): the `widget_token` POST /widget/sessions gave for ' +
      'this session; a session it does not reach answers 404, as an unknown one.',
  },
};

/** The problem body of a failed turn (429, 502, 504): http-kit's Problem plus the session. */
export const turnProblemSchema = problemSchema.extend({
  session_id: z.string(),
  ticket_id: z
    .string()
    .optional()
    .describe(
      'A ticket the turn opened before it failed: sending the message again may open another.',
    ),
});
