import type { LlmResponse } from '@google/adk';

/**
 * What went wrong with a model call, as far as retrying and answering the client are concerned.
 * `status` is the provider's HTTP status; `network` a refused, reset or cut connection.
 */
type ModelFailure =
  | { kind: 'timeout' | 'network' | 'other'; detail: string }
  | { kind: 'status'; status: number; detail: string };

/** The codes a turn fails with when the model does, carried by ADK's error event to the client. */
export type ModelErrorCode = 'model_timeout' | 'model_error';

const TRANSIENT_STATUSES = new Set([408, 429, 500, 502, 503, 504]);
const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

// undici reports a refused or dropped connection as "fetch failed" or "terminated"; by the time
// @google/genai rethrows a body read that was cut, only the text ("TypeError: terminated") is left.
const NETWORK_MESSAGE =
  /\b(fetch failed|terminated|socket hang up|other side closed|ECONNRESET|ECONNREFUSED)\b/;

function providerMessage(message: string): string {
  // @google/genai's ApiError message is the provider's JSON error body.
  try {
    const body = JSON.parse(message) as { error?: { message?: unknown } };
    if (typeof body.error?.message === 'string') return body.error.message;
  } catch {
    // not JSON: use it as it is
  }
  return message;
}

interface ErrorLike {
  name?: unknown;
  message?: unknown;
  status?: unknown;
  code?: unknown;
  cause?: { code?: unknown };
  /** The openai SDK's APIError: the provider's error object. */
  error?: { message?: string };
}

export function classifyModelError(error: unknown, timedOut: boolean): ModelFailure {
  if (timedOut) return { kind: 'timeout', detail: 'the model did not answer in time' };
  // Duck-typed: errors from Node's own fetch belong to another realm under jest's ESM mode.
  const e = (typeof error === 'object' && error !== null ? error : {}) as ErrorLike;
  const message = typeof e.message === 'string' ? e.message : String(error);
  if (e.name === 'ApiError' && typeof e.status === 'number') {
    return { kind: 'status', status: e.status, detail: providerMessage(message) };
  }
  // The openai SDK's APIError subclasses: `status` set for an HTTP answer, unset for a connection
  // that failed (APIConnectionError) or was aborted.
  if (typeof e.status === 'number' && e.status >= 400) {
    return { kind: 'status', status: e.status, detail: e.error?.message ?? message };
  }
  if (e.name === 'APIConnectionError' || e.name === 'APIConnectionTimeoutError') {
    return { kind: 'network', detail: message };
  }
  const code = e.cause?.code ?? e.code;
  if ((typeof code === 'string' && NETWORK_CODES.has(code)) || NETWORK_MESSAGE.test(message)) {
    return { kind: 'network', detail: message };
  }
  return { kind: 'other', detail: message };
}

/** Worth another attempt: rate limits, provider overload and outages, timeouts, dropped connections. */
export function isTransient(failure: ModelFailure): boolean {
  if (failure.kind === 'status') return TRANSIENT_STATUSES.has(failure.status);
  return failure.kind === 'timeout' || failure.kind === 'network';
}

/** ADK's error events carry any string: ours, or its own (e.g. `UNKNOWN_ERROR`), model errors too. */
export const toModelErrorCode = (code: string): ModelErrorCode =>
  code === 'model_timeout' ? code : 'model_error';

/** A call that failed for good, as an error response (as ADK's Gemini reports a blocked prompt). */
export function modelErrorResponse(failure: ModelFailure, attempts: number): LlmResponse {
  const what = failure.kind === 'status' ? `status ${failure.status}` : failure.kind;
  return {
    errorCode: failure.kind === 'timeout' ? 'model_timeout' : 'model_error',
    errorMessage: `model call failed after ${attempts} attempt${attempts === 1 ? '' : 's'} (${what}): ${failure.detail}`,
  };
}
