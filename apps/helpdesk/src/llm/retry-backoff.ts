export interface RetryPolicy {
  /** Attempts after the first one. */
  maxRetries: number;
  /** Delay before the first retry; doubles with each further one. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_BASE_DELAY_MS = 250;
export const DEFAULT_RETRY_MAX_DELAY_MS = 4_000;

/**
 * Exponential backoff with jitter (half fixed, half random) so that many sessions rate-limited
 * together do not retry in lockstep. `retry` counts from 1.
 */
export function backoffDelayMs(retry: number, policy: RetryPolicy, random = Math.random): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.round(exponential / 2 + (random() * exponential) / 2);
}
