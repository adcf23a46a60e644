import {
  classifyModelError,
  isTransient,
  modelErrorResponse,
  toModelErrorCode,
} from '../src/llm/model-errors.js';
import { backoffMs } from '@repo/http-kit';
import { retryBackoff } from '../src/llm/model.js';

function apiError(status: number) {
  return Object.assign(
    new Error(JSON.stringify({ error: { code: status, message: `status ${status}` } })),
    {
      name: 'ApiError',
      status,
    },
  );
}

describe('classifying model errors', () => {
  it.each([429, 500, 502, 503, 504, 408])(
    'when the provider answers %i, then the failure is transient',
    (status) => {
      const failure = classifyModelError(apiError(status), false);

      expect(failure).toEqual({ kind: 'status', status, detail: `status ${status}` });
      expect(isTransient(failure)).toBe(true);
    },
  );

  it.each([400, 401, 403, 404])(
    'when the provider answers %i, then the failure is final',
    (status) => {
      expect(isTransient(classifyModelError(apiError(status), false))).toBe(false);
    },
  );

  it('when the call was cut by its deadline, then it is a transient timeout whatever the error says', () => {
    const failure = classifyModelError(new Error('This operation was aborted'), true);

    expect(failure.kind).toBe('timeout');
    expect(isTransient(failure)).toBe(true);
  });

  it('when the connection was refused or dropped, then the failure is transient', () => {
    const refused = Object.assign(new TypeError('fetch failed'), {
      cause: { code: 'ECONNREFUSED' },
    });

    expect(isTransient(classifyModelError(refused, false))).toBe(true);
    expect(isTransient(classifyModelError(new TypeError('terminated'), false))).toBe(true);
  });

  it('when the response could not be parsed, then the failure is final', () => {
    expect(isTransient(classifyModelError(new SyntaxError('Unexpected token'), false))).toBe(false);
  });

  it('when retries are spent, then ADK gets an error response carrying the error code', () => {
    const response = modelErrorResponse({ kind: 'timeout', detail: 'slow' }, 3);

    expect(response).toEqual({
      errorCode: 'model_timeout',
      errorMessage: 'model call failed after 3 attempts (timeout): slow',
    });
  });

  it("when ADK's error event carries a code of its own, then it counts as a model error", () => {
    expect(toModelErrorCode('model_timeout')).toBe('model_timeout');
    expect(toModelErrorCode('SAFETY')).toBe('model_error');
  });
});

describe('backoff', () => {
  const backoff = { ...retryBackoff(100), maxMs: 1_000 };

  it('when retries go on, then the delay doubles up to the cap, with up to half of it random', () => {
    expect([1, 2, 3, 4, 5].map((n) => backoffMs(backoff, n, () => 0))).toEqual([
      50, 100, 200, 400, 500,
    ]);
    expect([1, 2, 3, 4, 5].map((n) => backoffMs(backoff, n, () => 1))).toEqual([
      100, 200, 400, 800, 1_000,
    ]);
  });
});
