/**
 * How transient delivery failures are retried. In PostgreSQL mode these are pg-boss's own job
 * options (retryLimit, retryDelay, retryBackoff): the queue schedules each retry. Memory mode
 * schedules the same waits in process (retryDelayMs).
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

/**
 * The wait before retry number `retryCount + 1`, as pg-boss 10.4.2 computes it (plans.js,
 * failJobs): with backoff d·2ⁿ·(1 + random) / … that is between d·2ⁿ and d·2ⁿ⁺¹ seconds.
 */
export function retryDelayMs(policy: RetryPolicy, retryCount: number, random = Math.random()) {
  if (!policy.backoff) return policy.delaySeconds * 1000;
  const base = (policy.delaySeconds * 2 ** Math.min(16, retryCount + 1)) / 2;
  return (base + base * random) * 1000;
}
