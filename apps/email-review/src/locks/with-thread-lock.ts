import { runHolding } from './held-lease.js';
import { ThreadBusy } from './lock-errors.js';
import type { ThreadLocks } from './thread-locks.js';

/**
 * Runs `change` holding the thread's lock. A held lock means another change is running: the caller
 * gets ThreadBusy (409) at once rather than queueing behind it. The stores see the lease the change
 * holds (held-lease.ts) and fence the thread's writes with it.
 */
export async function withThreadLock<T>(
  locks: ThreadLocks,
  threadId: string,
  change: () => Promise<T>,
): Promise<T> {
  const lease = await locks.tryAcquire(threadId);
  if (!lease) throw new ThreadBusy(threadId);
  try {
    return await runHolding(threadId, lease, change);
  } finally {
    await lease.release();
  }
}
