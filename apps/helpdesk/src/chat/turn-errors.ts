import { HttpError } from '@repo/http-kit';
import type { ModelErrorCode } from '../llm/model-errors.js';

/** Why a turn produced no reply: the model failed, the agents failed, or they ended without text. */
export type TurnErrorCode = ModelErrorCode | 'agent_error' | 'empty_reply';

const TURN_ERRORS: Record<TurnErrorCode, { status: 502 | 504; detail: string }> = {
  model_timeout: { status: 504, detail: 'The model did not answer in time.' },
  model_error: { status: 502, detail: 'The model call failed.' },
  agent_error: { status: 502, detail: 'The agents failed on this message.' },
  empty_reply: { status: 502, detail: 'The agents ended the turn without a reply.' },
};

/**
 * A turn that produced no reply: a gateway error, naming a ticket opened before it failed (the
 * client should know it exists). The body's detail is generic; `reason` (the provider's message)
 * goes as `cause`, which pino appends to the logged `err.message`: the log line only.
 */
export class TurnFailedError extends HttpError {
  constructor(
    code: TurnErrorCode,
    context: { sessionId: string; ticketId?: string | undefined; reason?: string | undefined },
  ) {
    const { status, detail } = TURN_ERRORS[code];
    super(status, code, detail, {
      extra: {
        session_id: context.sessionId,
        ticket_id: context.ticketId,
      },
    });
    this.name = 'TurnFailedError';
    if (context.reason) this.cause = new Error(context.reason);
  }
}
