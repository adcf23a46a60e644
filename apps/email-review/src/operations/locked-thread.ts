import { ThreadBusy } from '../locks/lock-errors.js';
import { withThreadLock } from '../locks/with-thread-lock.js';
import type { Thread } from '../threads/thread.js';
import { getThread } from './get-thread.js';
import type { OperationDeps } from './operation-deps.js';

/**
 * Runs `change` holding the thread's lock, on the thread as read after the lock was taken: the
 * previous holder may have changed it a moment ago.
 */
export async function withLockedThread<T>(
  deps: Pick<OperationDeps, 'locks' | 'threads'>,
  threadId: string,
  change: (thread: Thread) => Promise<T>,
): Promise<T> {
  try {
    return await withThreadLock(deps.locks, threadId, async () =>
      change(await getThread(deps, threadId)),
    );
  } catch (error) {
    // A busy lock on an id nobody knows is still an unknown thread.
    if (error instanceof ThreadBusy) await getThread(deps, threadId);
    throw error;
  }
}
