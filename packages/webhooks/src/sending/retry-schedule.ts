import { backoffMs } from '@repo/http-kit';

const MAX_DELAY_MS = 3_600_000;

export interface RetrySchedule {
  /** First delay; each next one doubles, up to an hour. */
  baseMs: number;
  /** Past this age (from the event's creation) a retryable failure is final. */
  retryForMs: number;
}

/**
 * When to try again after `attempts` failed attempts, or undefined when the delivery has been
 * retried long enough. A little jitter keeps endpoints that recover from all being hit at once.
 */
export function nextAttemptAt(
  schedule: RetrySchedule,
  attempts: number,
  createdAt: Date,
  now: Date,
): Date | undefined {
  const backoff = { firstMs: schedule.baseMs, maxMs: MAX_DELAY_MS, jitter: [0.9, 1.1] as const };
  const at = now.getTime() + backoffMs(backoff, Math.max(1, attempts));
  if (at - createdAt.getTime() > schedule.retryForMs) return undefined;
  return new Date(at);
}
