import type { Thread } from '../threads/thread.js';
import { changeThread } from './change-thread.js';
import { withLockedThread } from './locked-thread.js';
import type { OperationDeps } from './operation-deps.js';
import { requireAwaitingReview } from './status-rules.js';

/** Resumes the paused workflow, which runs `send`. */
export function approveThread(deps: OperationDeps, threadId: string): Promise<Thread> {
  return withLockedThread(deps, threadId, (thread) => {
    requireAwaitingReview(thread);
    return changeThread(deps, thread, { altersDraft: false, checkpoint: [{ run: null }] });
  });
}
