import { backoffMs, type Backoff } from '@repo/http-kit';
import type OpenAI from 'openai';
import { APIConnectionError, APIError, OpenAIError } from 'openai';
import { ModelOutputInvalid, ModelUnavailable } from './llm-errors.js';

/** How a step's model call is retried (as often as the client's maxRetries, each within its timeout). */
export interface ModelRetryPolicy {
  /** The most time a step spends waiting to retry and on retries, so answers come before a proxy gives up. */
  budgetMs?: number | undefined;
}

const DEFAULT_RETRY_BUDGET_MS = 20_000;
/** Waits between a model call's attempts, up to a quarter of each random. */
const MODEL_RETRIES: Backoff = { firstMs: 500, maxMs: 8_000, jitter: [0.75, 1] };
const RETRYABLE_STATUS = new Set([408, 409, 429]);

/**
 * Runs one model call with bounded retries: 408/409/429/5xx, timeouts and refused or dropped
 * connections are tried again after a backoff (or the provider's Retry-After) while the wait fits
 * the step's budget; past it, ModelUnavailable (503 with Retry-After) rather than holding the
 * request. Anything else unreadable is ModelOutputInvalid.
 */
export async function callModel<T>(
  llm: Pick<OpenAI, 'maxRetries' | 'timeout'>,
  policy: ModelRetryPolicy | undefined,
  /** One attempt: the SDK retries nothing itself (this function does), within its timeout. */
  call: (options: { maxRetries: 0; timeout: number }) => Promise<T>,
): Promise<T> {
  const { maxRetries: retries, timeout: timeoutMs } = llm;
  const deadline = Date.now() + (policy?.budgetMs ?? DEFAULT_RETRY_BUDGET_MS);
  for (let attempt = 0; ; attempt += 1) {
    const remaining = deadline - Date.now();
    // The first attempt gets the full timeout; retries only what is left of the budget.
    const timeout = attempt === 0 ? timeoutMs : Math.min(timeoutMs, remaining);
    try {
      return await call({ maxRetries: 0, timeout });
    } catch (error) {
      if (!isRetryable(error)) throw asModelFailure(error);
      const wait = retryAfterMs(error) ?? backoffMs(MODEL_RETRIES, attempt + 1);
      const left = deadline - Date.now();
      if (wait + 1_000 > left)
        throw new ModelUnavailable(retryAfterSeconds(error), { cause: error });
      // Out of tries: the provider's own error (502), or for a dropped connection, unavailable (503).
      if (attempt >= retries)
        throw error instanceof OpenAIError
          ? error
          : new ModelUnavailable(retryAfterSeconds(error), { cause: error });
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

function isRetryable(error: unknown): boolean {
  if (error instanceof APIConnectionError) return true;
  if (error instanceof APIError)
    return (
      error.status !== undefined && (RETRYABLE_STATUS.has(error.status) || error.status >= 500)
    );
  return isDroppedConnection(error);
}

/** The body stopped mid-way: undici's "terminated" (its cause: the socket closed) or a reset. */
function isDroppedConnection(error: unknown): boolean {
  // Duck-typed: undici's errors may come from another realm (e.g. under jest), failing instanceof Error.
  if (typeof error !== 'object' || error === null || error instanceof OpenAIError) return false;
  const { name, message, code, cause } = error as {
    name?: unknown;
    message?: unknown;
    code?: unknown;
    cause?: { code?: unknown };
  };
  return (
    (name === 'TypeError' && message === 'terminated') ||
    cause?.code === 'UND_ERR_SOCKET' ||
    code === 'ECONNRESET'
  );
}

/** A body that is not JSON or fails the schema is the model's fault too, never a 400 or 500 of ours. */
function asModelFailure(error: unknown): unknown {
  if (error instanceof OpenAIError || error instanceof ModelOutputInvalid) return error;
  return new ModelOutputInvalid(
    `unreadable (${error instanceof Error ? error.name : typeof error})`,
    { cause: error },
  );
}

function retryAfterMs(error: unknown): number | undefined {
  if (!(error instanceof APIError)) return undefined;
  const headers = error.headers as Headers | undefined;
  const ms = Number.parseFloat(headers?.get?.('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const seconds = Number.parseFloat(headers?.get?.('retry-after') ?? '');
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

/** What the client is told: the provider's own wait when it gave one, else a few seconds. */
function retryAfterSeconds(error: unknown): number {
  const ms = retryAfterMs(error);
  return Math.max(1, Math.ceil((ms ?? 5_000) / 1000));
}
