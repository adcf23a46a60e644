import { HttpError, problemBody, type Problem } from '@repo/http-kit';
import type { ModelErrorCode } from '../llm/model-errors.js';

/** Why a turn produced no reply: the model failed, the agents failed, or they ended without text. */
export type TurnErrorCode = ModelErrorCode | 'agent_error' | 'empty_reply';

const TURN_ERRORS: Record<TurnErrorCode, { status: 502 | 504; detail: string }> = {
  model_timeout: { status: 504, detail: 'The model did not answer in time.' },
  model_error: { status: 502, detail: 'The model call failed.' },
  agent_error: { status: 502, detail: 'The agents failed on this message.' },
  empty_reply: { status: 502, detail: 'The agents ended the turn without a reply.' },
};

interface TurnFailureContext {
  sessionId: string;
  /** A ticket `create_ticket` opened before the turn failed: the client should know it exists. */
  ticketId?: string | undefined;
  /** What actually went wrong (provider or exception message): logged, never sent to the client. */
  reason?: string | undefined;
}

/**
 * A turn that produced no reply. Always a gateway error: the fault is upstream, in the model.
 * The body carries a generic detail; the reason rides along as `cause`, which the error
 * middleware's log line includes (pino appends cause messages to `err.message`).
 */
export class TurnFailedError extends HttpError {
  constructor(code: TurnErrorCode, context: TurnFailureContext) {
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

/** What a client of a streamed turn (POST /chat's SSE, an A2A task) hears of a failure. */
export function problemOf(error: unknown): Problem {
  if (error instanceof HttpError) {
    return problemBody(error.status, error.code, error.detail, error.extra);
  }
  return problemBody(500, 'internal_error', 'An unexpected error occurred.');
}
