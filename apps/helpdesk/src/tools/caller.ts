import type { Context } from '@google/adk';
import { z } from 'zod';

/**
 * Who a turn runs for, as the service established it (never as a message claims it): `client`, a
 * request whose token or JWT was accepted (`name` as http-kit names the actor); `operator`, when
 * nothing had to be proven (an open service, or work that is no request); `widget`, the public
 * widget, proven only by the secret of `session`.
 */
const callerSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('client'), name: z.string() }),
  z.object({ kind: z.literal('operator') }),
  z.object({ kind: z.literal('widget'), session: z.string() }),
]);

export type Caller = z.infer<typeof callerSchema>;

/**
 * The session-state key of the turn's caller, set by the service on each turn's message (the
 * Runner's `stateDelta`) and read by the tools: nothing a customer writes reaches session state.
 */
export const CALLER_STATE_KEY = 'helpdesk_caller';

/** The caller of the turn a tool runs in; undefined when the tool runs outside the service's turns. */
export function callerIn(context: Context | undefined): Caller | undefined {
  const parsed = callerSchema.safeParse(context?.state.get(CALLER_STATE_KEY));
  return parsed.success ? parsed.data : undefined;
}
