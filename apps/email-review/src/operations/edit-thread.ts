import { currentActor } from '@repo/http-kit';
import type { Thread } from '../threads/thread.js';
import { decideThread, saveDecision, type RevisionCondition } from './decide-thread.js';
import { now, stateConfig, type OperationDeps } from './thread-service.js';
import { runModelJob } from './run-model-job.js';

/**
 * Replaces the draft with the reviewer's text, or redrafts with their instructions; pauses again.
 * Only on the revision the reviewer saw, when they name it.
 */
export function editThread(
  deps: OperationDeps,
  threadId: string,
  edit: { draft: string } | { instructions: string },
  condition?: RevisionCondition,
): Promise<Thread> {
  if ('instructions' in edit) return redraft(deps, threadId, edit.instructions, condition);
  const { draft } = edit;
  // One decision: the new text at the next revision, as the draft step's output (still before `send`).
  return decideThread(deps, threadId, condition, async (thread, decision) => {
    const view = { ...thread, draft, revision: thread.revision + 1, updated_at: now(deps) };
    const edited = {
      type: 'edited' as const,
      at: view.updated_at,
      actor: currentActor(),
      revision: view.revision,
      text: draft,
    };
    await decision.graph.updateState(stateConfig(threadId), { reply: draft, revision: 1 }, 'draft');
    await saveDecision(deps, decision, { view, revision: thread.revision, events: [edited] });
    return view;
  });
}

/**
 * One decision marks the thread `drafting`, records the instructions as the classify step's output
 * (so `draft` runs next) and queues the redraft job, which then runs here at once.
 */
async function redraft(
  deps: OperationDeps,
  threadId: string,
  instructions: string,
  condition?: RevisionCondition,
): Promise<Thread> {
  const job = {
    thread_id: threadId,
    kind: 'redraft' as const,
    instructions,
    actor: currentActor(),
  };
  let jobId = '';
  const marked = await decideThread(deps, threadId, condition, async (thread, decision) => {
    const view: Thread = { ...thread, status: 'drafting', updated_at: now(deps) };
    await decision.graph.updateState(stateConfig(threadId), { instructions }, 'classify');
    await saveDecision(deps, decision, { view, revision: thread.revision, events: [] });
    jobId = await deps.modelJobs.send(job, decision);
    return view;
  });
  return (await runModelJob(deps, job, jobId)) ?? marked;
}
