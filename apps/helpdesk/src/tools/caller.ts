import type { Context } from '@google/adk';
import { z } from 'zod';

/**
 * Who a turn runs for, as the service established it (never as a message claims it):
 * - `client`: a request with a bearer token or JWT the service accepted; `name` is who it
 *   stands for (the API_TOKENS name, API_TOKEN's `reviewer`, the JWT's email or subject);
 * - `operator`: no one had to prove anything, because the service needs no token (an open
 *   service: development, or a network that guards it) or the work is not a request at all;
 * - `widget`: the public chat widget without a token, proven only by the secret of `session`.
 */
export const callerSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('client'), name: z.string() }),
  z.object({ kind: z.literal('operator') }),
  z.object({ kind: z.literal('widget'), session: z.string() }),
]);

export type Caller = z.infer<typeof callerSchema>;

/**
 * The session-state key the turn's caller is under: set by the service at the start of each
 * turn (the Runner's `stateDelta` on the customer's message), read by the tools. Nothing a
 * customer writes reaches session state; the model only sees it through a tool.
 */
export const CALLER_STATE_KEY = 'helpdesk_caller';

/** The caller of the turn a tool runs in; undefined when the tool runs outside the service's turns. */
export function callerIn(context: Context | undefined): Caller | undefined {
  const parsed = callerSchema.safeParse(context?.state.get(CALLER_STATE_KEY));
  return parsed.success ? parsed.data : undefined;
}
