import { HttpError } from '@repo/http-kit';
import { MODEL_TIMEOUT_CODE } from '../agents/model-errors.js';

/** A turn that produced no reply. Always a gateway error: the fault is upstream, in the model. */
export class TurnFailedError extends HttpError {
  constructor(status: 502 | 504, code: string, detail: string, sessionId: string) {
    super(status, code, detail, { session_id: sessionId });
    this.name = 'TurnFailedError';
  }
}

/** Maps the errorCode/errorMessage of an ADK error event to the answer the client gets. */
export function turnFailureFromModelError(
  errorCode: string,
  errorMessage: string | undefined,
  sessionId: string,
): TurnFailedError {
  if (errorCode === MODEL_TIMEOUT_CODE) {
    return new TurnFailedError(
      504,
      'model_timeout',
      `The model did not answer in time: ${errorMessage ?? errorCode}`,
      sessionId,
    );
  }
  return new TurnFailedError(
    502,
    'model_error',
    `The model call failed (${errorCode}): ${errorMessage ?? 'no detail'}`,
    sessionId,
  );
}
