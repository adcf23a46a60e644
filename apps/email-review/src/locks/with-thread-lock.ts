import { ThreadBusy } from './lock-errors.js';
import type { ThreadLocks } from './thread-locks.js';

/**
 * Runs `change` holding the thread's lock. A held lock means another change is running: the caller
 * gets ThreadBusy (409) at once rather than queueing behind it.
 */
export async function withThreadLock<T>(
  locks: ThreadLocks,
  threadId: string,
  change: () => Promise<T>,
): Promise<T> {
  const lease = await locks.tryAcquire(threadId);
  if (!lease) throw new ThreadBusy(threadId);
  try {
    return await change();
  } finally {
    await lease.release();
  }
}
