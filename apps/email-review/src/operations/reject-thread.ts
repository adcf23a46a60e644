import { currentActor } from '@repo/http-kit';
import type { Thread } from '../threads/thread.js';
import { decideThread, saveDecision, type RevisionCondition } from './decide-thread.js';
import { learnFromRejection } from '../quality/learn-from-decision.js';
import { now, stateConfig, type OperationDeps } from './thread-service.js';

export interface Rejection {
  /** Why: one of REJECT_REASONS (older clients: free text, counted as `other` with it as the note). */
  reason?: string | undefined;
  /** The reviewer's words, beside the reason. */
  note?: string | undefined;
}

/**
 * Ends the workflow without sending, in one decision: the view `rejected`, and the outcome recorded
 * as the `send` step's, which never runs. The draft stays.
 */
export function rejectThread(
  deps: OperationDeps,
  threadId: string,
  rejection: Rejection = {},
  condition?: RevisionCondition,
): Promise<Thread> {
  return decideThread(deps, threadId, condition, async (thread, decision) => {
    const at = now(deps);
    const view: Thread = { ...thread, status: 'rejected', updated_at: at };
    const rejected = {
      type: 'rejected' as const,
      at,
      actor: currentActor(),
      reason: [rejection.reason, rejection.note].filter(Boolean).join(': ') || null,
    };
    await decision.graph.updateState(stateConfig(threadId), { rejected_at: at }, 'send');
    await saveDecision(deps, decision, { view, revision: thread.revision, events: [rejected] });
    await learnFromRejection(deps, decision, thread, { ...rejection, at });
    return view;
  });
}
