import type { Thread } from '../threads/thread.js';
import { changeThread } from './change-thread.js';
import { reviewer } from './history-events.js';
import { withLockedThread } from './locked-thread.js';
import { now, type OperationDeps } from './operation-deps.js';
import { requireAwaitingReview, requireRevision, type RevisionCondition } from './status-rules.js';

export interface Rejection {
  /** Why, for the history. */
  reason?: string;
}

/**
 * Ends the workflow without sending: recorded as the outcome of the `send` step, which never runs.
 * The draft stays, so no `drafting` mark: a crash between the two writes leaves a finished graph,
 * and approving a finished graph sends nothing.
 */
export function rejectThread(
  deps: OperationDeps,
  threadId: string,
  rejection: Rejection = {},
  condition?: RevisionCondition,
): Promise<Thread> {
  return withLockedThread(deps, threadId, (thread) => {
    requireRevision(thread, condition);
    requireAwaitingReview(thread);
    const at = now(deps);
    const actor = reviewer();
    return changeThread(deps, thread, {
      altersDraft: false,
      checkpoint: [{ record: { rejected_at: at }, asNode: 'send' }],
      view: (thread) => ({ ...thread, status: 'rejected', updated_at: at }),
      history: () => [{ type: 'rejected', at, actor, reason: rejection.reason ?? null }],
    });
  });
}
