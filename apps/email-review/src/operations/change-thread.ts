import { DatabaseUnavailable } from '@repo/pg-kit';
import { ThreadLeaseLost } from '../locks/lock-errors.js';
import { isModelFailure, ModelUnavailable, ModelUnavailableAnswer } from '../llm/llm-errors.js';
import { StepNotStored } from '../persistence/step-not-stored.js';
import type { HistoryEvent } from '../threads/thread-history.js';
import type { Thread } from '../threads/thread.js';
import { WorkflowStepFailed } from '../threads/thread-errors.js';
import { projectThread } from '../threads/thread-projection.js';
import type { EmailStateUpdate, EmailStateValues } from '../workflow/state.js';
import { runConfig, stateConfig } from './graph-config.js';
import { stepEvents } from './history-events.js';
import { now, type OperationDeps } from './operation-deps.js';
import { recordFailure } from './record-failure.js';

/** One write to the graph's checkpoint. */
export type CheckpointWrite =
  /** Starts the workflow on a new email, or (`null`) resumes it; the run checkpoints when it stops. */
  | { run: { inbound: string; subject: string | null } | null }
  /** Records `values` as the output of the step `asNode` (updateState), which decides what runs next. */
  | { record: EmailStateUpdate; asNode: 'classify' | 'draft' | 'send' };

export interface ThreadChange {
  /** Whether the change can leave the checkpoint with a draft the reviewer has not been shown. */
  altersDraft: boolean;
  /** Written in this order, all before the index. */
  checkpoint: CheckpointWrite[];
  /** The new view of the thread; by default projected from what the last run left in the checkpoint. */
  view?: (thread: Thread) => Thread;
  /** The history events the new view records (same write); by default what the run did (stepEvents). */
  history?: (view: Thread) => HistoryEvent[];
  /** Recorded first, whether the change succeeds or its run fails (e.g. `retried`). */
  lead?: HistoryEvent[];
}

/**
 * The one way an operation changes a thread, so that the checkpoint and the thread index are always
 * written in the same order. The checkpoint is the source of truth (`send` reads the draft from it);
 * the index is a view derived from it and written second. A change that alters the draft of a
 * reviewable thread first marks the index `drafting` (approve answers 409), then writes the
 * checkpoint, then the new view: a crash between the writes leaves the thread `drafting` until retry
 * re-derives the view, so approve can never send a draft the reviewer was not shown. A thread that is
 * already not reviewable (new, `drafting`, `failed`) needs no mark.
 *
 * The view and the history events describing it are one write (ThreadStore.save), so the history
 * agrees with the index after any crash; the `drafting` mark records no event (nothing happened yet).
 *
 * A failed run is recorded in the index (`failed`, retryable); a model failure answers 502.
 */
export async function changeThread(
  deps: OperationDeps,
  thread: Thread,
  change: ThreadChange,
): Promise<Thread> {
  if (change.altersDraft && thread.status === 'awaiting_review')
    await deps.threads.save({ ...thread, status: 'drafting', updated_at: now(deps) });
  let values: Partial<EmailStateValues> = {};
  for (const write of change.checkpoint)
    values = (await writeCheckpoint(deps, thread, write, change.lead ?? [])) ?? values;
  const view = change.view ? change.view(thread) : projectThread(thread, values, now(deps));
  const events = change.history ? change.history(view) : stepEvents(thread, view, view.updated_at);
  await deps.threads
    .save(view, [...(change.lead ?? []), ...events])
    .catch(async (error: unknown) => {
      // The thread is another change's now (its lease passed on): nothing of this one is recorded.
      if (error instanceof DatabaseUnavailable || error instanceof ThreadLeaseLost) throw error;
      await recordFailure(deps, thread, error, change.lead ?? [], events);
      throw new StepNotStored(thread.thread_id, error);
    });
  return view;
}

/** Writes to the checkpoint; returns the graph's values after a run. */
async function writeCheckpoint(
  deps: OperationDeps,
  thread: Thread,
  write: CheckpointWrite,
  lead: HistoryEvent[],
): Promise<Partial<EmailStateValues> | undefined> {
  const threadId = thread.thread_id;
  if ('record' in write) {
    await deps.graph.updateState(stateConfig(threadId), write.record, write.asNode);
    return undefined;
  }
  try {
    return await deps.graph.invoke(write.run, runConfig(threadId));
  } catch (error) {
    // Nothing can be recorded while the database is away: the orphan recovery finishes the thread.
    if (error instanceof DatabaseUnavailable) throw error;
    const failed = await recordFailure(deps, thread, error, lead);
    if (error instanceof ModelUnavailable) throw new ModelUnavailableAnswer(threadId, error);
    if (isModelFailure(error))
      throw new WorkflowStepFailed(failed, failed.error!, { cause: error });
    throw error;
  }
}
