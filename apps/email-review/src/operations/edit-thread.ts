import type { Thread } from '../threads/thread.js';
import { changeThread, type ThreadChange } from './change-thread.js';
import { withLockedThread } from './locked-thread.js';
import { now, type OperationDeps } from './operation-deps.js';
import { requireAwaitingReview } from './status-rules.js';

export type ThreadEdit = { draft: string } | { instructions: string };

/** Replaces the draft with the reviewer's text, or redrafts with their instructions; pauses again. */
export function editThread(
  deps: OperationDeps,
  threadId: string,
  edit: ThreadEdit,
): Promise<Thread> {
  return withLockedThread(deps, threadId, (thread) => {
    requireAwaitingReview(thread);
    const change = 'draft' in edit ? replaceDraft(deps, edit.draft) : redraft(edit.instructions);
    return changeThread(deps, thread, change);
  });
}

/** Recorded as the draft step's output, so the graph stays paused before `send`. */
function replaceDraft(deps: OperationDeps, draft: string): ThreadChange {
  return {
    altersDraft: true,
    checkpoint: [{ record: { reply: draft, revision: 1 }, asNode: 'draft' }],
    view: (thread): Thread => ({
      ...thread,
      draft,
      revision: thread.revision + 1,
      updated_at: now(deps),
    }),
  };
}

/** Recorded as the classify step's output, so `draft` is what runs next; then the graph pauses again. */
function redraft(instructions: string): ThreadChange {
  return {
    altersDraft: true,
    checkpoint: [{ record: { instructions }, asNode: 'classify' }, { run: null }],
  };
}
