import { backoffMs } from '@repo/http-kit';

/**
 * How transient delivery failures are retried: pg-boss's job options (retryLimit, retryDelay,
 * retryBackoff) in PostgreSQL mode; memory mode waits the same in process (retryDelayMs).
 */
export interface RetryPolicy {
  /** Attempts in all, the first included; a transient failure on the last one fails the delivery. */
  maxAttempts: number;
  /** Seconds before the first retry (pg-boss's retryDelay, a whole number ≥ 1). */
  delaySeconds: number;
  /** Each wait doubles, with jitter (pg-boss's retryBackoff); off: every wait is `delaySeconds`. */
  backoff: boolean;
}

/** 30–60 s, doubling (jittered), 9 attempts: the last wait 1–2 h, about 2–4 hours of trying in all. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 9,
  delaySeconds: 30,
  backoff: true,
};

/** The wait before retry `retryCount + 1` as pg-boss computes it: d·2ⁿ to d·2ⁿ⁺¹ s (n ≤ 15). */
export function retryDelayMs(policy: RetryPolicy, retryCount: number) {
  const firstMs = policy.delaySeconds * 1000;
  if (!policy.backoff) return firstMs;
  return backoffMs({ firstMs, maxMs: firstMs * 2 ** 15, jitter: [1, 2] }, retryCount + 1);
}
