import { DatabaseUnavailable } from '@repo/pg-kit';
import { ThreadLeaseLost } from '../locks/lock-errors.js';
import { isModelFailure, ModelUnavailable, ModelUnavailableAnswer } from '../llm/llm-errors.js';
import { StepNotStored } from '../persistence/step-not-stored.js';
import type { HistoryEvent } from '../threads/thread-history.js';
import type { Thread } from '../threads/thread.js';
import { WorkflowStepFailed } from '../threads/thread-errors.js';
import { projectThread } from '../threads/thread-projection.js';
import type { EarlierExchange, EmailStateValues } from '../workflow/state.js';
import { runConfig } from './graph-config.js';
import { stepEvents } from './history-events.js';
import { now, type OperationDeps } from './operation-deps.js';
import { recordFailure } from './record-failure.js';

/** The graph's input: a new email (see firstRunInput), or `null` to resume from the checkpoint. */
export type RunInput = {
  inbound: string;
  subject: string | null;
  from: string | null;
  earlier: EarlierExchange | null;
} | null;

export interface ThreadRun {
  /** Runs the graph (which checkpoints when it stops); absent: only the view is re-derived. */
  run?: RunInput;
  /** The new view of the thread; by default projected from what the run left in the checkpoint. */
  view?: (thread: Thread) => Thread;
  /** The history events the new view records (same write); by default what the run did (stepEvents). */
  history?: (view: Thread) => HistoryEvent[];
  /** Recorded first, whether the change succeeds or its run fails (e.g. `retried`). */
  lead?: HistoryEvent[];
}

/**
 * The one way the model's work changes a thread that is not awaiting review (new, `drafting`,
 * `failed`), under the thread's lease: the graph runs and checkpoints, then the view derived from
 * it is written with its history events (ThreadStore.save). The checkpoint is written first, so a
 * crash in between leaves the thread `drafting` (not reviewable) until a retry or the orphan
 * recovery re-derives the view from the checkpoint.
 *
 * A failed run is recorded in the index (`failed`, retryable); a model failure answers 502.
 */
export async function runThread(
  deps: OperationDeps,
  thread: Thread,
  change: ThreadRun,
): Promise<Thread> {
  const values =
    change.run === undefined ? {} : await runGraph(deps, thread, change.run, change.lead ?? []);
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

/** Runs the graph; returns its values when it stops. */
async function runGraph(
  deps: OperationDeps,
  thread: Thread,
  input: RunInput,
  lead: HistoryEvent[],
): Promise<Partial<EmailStateValues>> {
  const threadId = thread.thread_id;
  try {
    return await deps.graph.invoke(input, runConfig(threadId));
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
