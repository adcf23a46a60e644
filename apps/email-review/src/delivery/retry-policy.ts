/** How transient delivery failures are retried: exponential backoff, capped, a bounded number of attempts. */
export interface RetryPolicy {
  /** Delay after the first failed attempt; doubles after each further one. */
  initialDelayMs: number;
  maxDelayMs: number;
  /** Attempts in all, the first included; a transient failure on the last one fails the delivery. */
  maxAttempts: number;
}

/** ~30 s growing to an hour, 10 attempts: about 3 hours of trying. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  initialDelayMs: 30_000,
  maxDelayMs: 3_600_000,
  maxAttempts: 10,
};

/** The wait before the next attempt after `attempts` failed ones, or undefined when none is left. */
export function nextRetryDelay(policy: RetryPolicy, attempts: number): number | undefined {
  if (attempts >= policy.maxAttempts) return undefined;
  return Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** Math.max(0, attempts - 1));
}
