import { HttpError } from '@repo/http-kit';
import { MODEL_TIMEOUT_CODE } from '../agents/model-errors.js';

export interface TurnFailureContext {
  sessionId: string;
  /** A ticket `create_ticket` opened before the turn failed: the client should know it exists. */
  ticketId?: string;
  /** What actually went wrong (provider or exception message): logged, never sent to the client. */
  reason?: string;
}

/**
 * A turn that produced no reply. Always a gateway error: the fault is upstream, in the model.
 * The body carries a generic detail; the reason rides along as `cause`, which the error
 * middleware's log line includes (pino appends cause messages to `err.message`).
 */
export class TurnFailedError extends HttpError {
  constructor(status: 502 | 504, code: string, detail: string, context: TurnFailureContext) {
    super(status, code, detail, {
      session_id: context.sessionId,
      ...(context.ticketId ? { ticket_id: context.ticketId } : {}),
    });
    this.name = 'TurnFailedError';
    if (context.reason) this.cause = new Error(context.reason);
  }
}

/** Maps the errorCode/errorMessage of an ADK error event to the answer the client gets. */
export function turnFailureFromModelError(
  errorCode: string,
  errorMessage: string | undefined,
  context: TurnFailureContext,
): TurnFailedError {
  const reason = `${errorCode}: ${errorMessage ?? 'no detail'}`;
  if (errorCode === MODEL_TIMEOUT_CODE) {
    return new TurnFailedError(504, 'model_timeout', 'The model did not answer in time.', {
      ...context,
      reason,
    });
  }
  return new TurnFailedError(502, 'model_error', 'The model call failed.', { ...context, reason });
}
