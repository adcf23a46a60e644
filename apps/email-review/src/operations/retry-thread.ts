import type { StateSnapshot } from '@langchain/langgraph';
import type { Thread } from '../threads/thread.js';
import { projectThread } from '../threads/thread-projection.js';
import type { EmailStateValues } from '../workflow/state.js';
import { runThread, type ThreadRun } from './change-thread.js';
import { firstRunInput } from './earlier-exchange.js';
import { stateConfig } from './graph-config.js';
import { reviewer } from './history-events.js';
import { withLockedThread } from './locked-thread.js';
import { now, type OperationDeps } from './operation-deps.js';
import { requireRetryable } from './status-rules.js';

/**
 * Resumes a `failed` thread from its last checkpoint (completed steps are not repeated), or a
 * `drafting` one whose run died with its process (the recovery path in the README).
 */
export function retryThread(deps: OperationDeps, threadId: string): Promise<Thread> {
  return withLockedThread(deps, threadId, async (thread) => {
    requireRetryable(thread);
    return resumeThread(deps, thread);
  });
}

/** Resumes `thread`, whose lease the caller holds (retry, and the orphan recovery). */
export async function resumeThread(deps: OperationDeps, thread: Thread): Promise<Thread> {
  const snapshot = await deps.graph.getState(stateConfig(thread.thread_id));
  const retried = { type: 'retried' as const, at: now(deps), actor: reviewer() };
  return runThread(deps, thread, {
    ...(await resumption(deps, thread, snapshot)),
    lead: [retried],
  });
}

async function resumption(
  deps: OperationDeps,
  thread: Thread,
  snapshot: StateSnapshot,
): Promise<ThreadRun> {
  const values = snapshot.values as Partial<EmailStateValues>;
  // Nothing was checkpointed (the first run died early): start again from the email the index kept.
  if (values.inbound === undefined) return { run: await firstRunInput(deps, thread) };
  // Nothing left to run without a reviewer, but the index missed it (the process died between the
  // two writes): only the view is re-derived. Resuming here would run `send` without an approval.
  if (isSettled(snapshot))
    return {
      view: (thread) => projectThread(thread, values, now(deps)),
      // The change whose view the crash lost was not recorded; the history says the view caught up.
      history: (view) => [
        { type: 'recovered', at: view.updated_at, actor: 'system', revision: view.revision },
      ],
    };
  return { run: null };
}

/** Whether the checkpoint is at rest: no failed step, and nothing to run but an unapproved `send`. */
function isSettled(snapshot: StateSnapshot): boolean {
  return (
    snapshot.tasks.every((task) => !task.error) && snapshot.next.every((node) => node === 'send')
  );
}
