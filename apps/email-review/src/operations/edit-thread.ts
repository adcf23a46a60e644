import type { Thread } from '../threads/thread.js';
import { changeThread, type ThreadChange } from './change-thread.js';
import { reviewer } from './history-events.js';
import { withLockedThread } from './locked-thread.js';
import { now, type OperationDeps } from './operation-deps.js';
import { requireAwaitingReview, requireRevision, type RevisionCondition } from './status-rules.js';

export type ThreadEdit = { draft: string } | { instructions: string };

/**
 * Replaces the draft with the reviewer's text, or redrafts with their instructions; pauses again.
 * Only on the revision the reviewer saw, when they name it.
 */
export function editThread(
  deps: OperationDeps,
  threadId: string,
  edit: ThreadEdit,
  condition?: RevisionCondition,
): Promise<Thread> {
  return withLockedThread(deps, threadId, (thread) => {
    requireRevision(thread, condition);
    requireAwaitingReview(thread);
    const actor = reviewer();
    const change =
      'draft' in edit ? replaceDraft(deps, edit.draft, actor) : redraft(edit.instructions, actor);
    return changeThread(deps, thread, change);
  });
}

/** Recorded as the draft step's output, so the graph stays paused before `send`. */
function replaceDraft(deps: OperationDeps, draft: string, actor: string): ThreadChange {
  return {
    altersDraft: true,
    checkpoint: [{ record: { reply: draft, revision: 1 }, asNode: 'draft' }],
    view: (thread): Thread => ({
      ...thread,
      draft,
      revision: thread.revision + 1,
      updated_at: now(deps),
    }),
    history: (view) => [
      { type: 'edited', at: view.updated_at, actor, revision: view.revision, text: draft },
    ],
  };
}

/** Recorded as the classify step's output, so `draft` is what runs next; then the graph pauses again. */
function redraft(instructions: string, actor: string): ThreadChange {
  return {
    altersDraft: true,
    checkpoint: [{ record: { instructions }, asNode: 'classify' }, { run: null }],
    history: (view) => [
      { type: 'redrafted', at: view.updated_at, actor, revision: view.revision, instructions },
    ],
  };
}
