import type { Counter, Histogram } from 'prom-client';
import { ThreadLocksUnavailable } from '../locks/lock-errors.js';
import type { ThreadLocks } from '../locks/thread-locks.js';

/**
 * The thread locks, timed and counted: how long taking a lock took, and each refusal — `busy` (the
 * thread is being changed: 409) or `unavailable` (no lock connection came free in time: 503).
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
        const unavailable = error instanceof ThreadLocksUnavailable;
        stop({ outcome: unavailable ? 'unavailable' : 'error' });
        if (unavailable) metrics.refusals.inc({ reason: 'unavailable' });
        throw error;
      }
    },
  };
}
