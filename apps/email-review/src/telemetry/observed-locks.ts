import { DatabaseUnavailable } from '@repo/pg-kit';
import type { Counter, Histogram } from 'prom-client';
import type { ThreadLocks } from '../locks/thread-locks.js';

/**
 * The thread leases, timed and counted: how long taking one took, and each refusal — `busy` (the
 * thread is being changed: 409) or `unavailable` (the database could not be reached: 503).
 */
export function observedLocks(
  locks: ThreadLocks,
  metrics: { wait: Histogram<'outcome'>; refusals: Counter<'reason'> },
): ThreadLocks {
  return {
    async tryAcquire(threadId) {
      const stop = metrics.wait.startTimer();
      try {
        const lease = await locks.tryAcquire(threadId);
        stop({ outcome: lease ? 'acquired' : 'busy' });
        if (!lease) metrics.refusals.inc({ reason: 'busy' });
        return lease;
      } catch (error) {
        const unavailable = error instanceof DatabaseUnavailable;
        stop({ outcome: unavailable ? 'unavailable' : 'error' });
        if (unavailable) metrics.refusals.inc({ reason: 'unavailable' });
        throw error;
      }
    },
  };
}
