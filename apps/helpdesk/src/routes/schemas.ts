import { z } from 'zod';
import { problemSchema } from '@repo/http-kit';

/** One zod schema per edge: it validates, types, and feeds the OpenAPI document. */
export const sessionIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9._:-]{1,128}$/, 'must be 1-128 characters of A-Z a-z 0-9 . _ : -')
  .describe('Chosen by the client; the first message of an unknown id creates the session.');

export const chatRequestSchema = z.strictObject({
  session_id: sessionIdSchema,
  // One rule for empty and blank alike, so an empty message answers one error, not two.
  message: z.string().max(8000).regex(/\S/, 'must not be blank'),
});

const agentSchema = z
  .enum(['billing', 'technical', 'escalation', 'coordinator'])
  .describe('The specialist that answered; coordinator only when it answered without delegating.');

export const chatResponseSchema = z.object({
  session_id: z.string(),
  agent: agentSchema,
  reply: z.string(),
  ticket_id: z
    .string()
    .optional()
    .describe('Present exactly when the escalation agent opened a ticket in this turn.'),
});

export const turnSchema = z.object({
  role: z.enum(['user', 'assistant']),
  agent: agentSchema.nullable(),
  text: z.string(),
  ticket_id: z.string().optional(),
  at: z.iso.datetime(),
});

export const sessionResponseSchema = z.object({
  session_id: z.string(),
  turns: z.array(turnSchema),
});

export const sessionParamsSchema = z.object({ session_id: sessionIdSchema });

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
