import { BaseCheckpointSaver, type StateSnapshot } from '@langchain/langgraph';
import { DatabaseUnavailable } from '@repo/pg-kit';
import { isModelFailure, ModelUnavailable, ModelUnavailableAnswer } from '../llm/llm-errors.js';
import type { ModelJob } from '../jobs/model-jobs.js';
import type { DeferredWrites } from '../persistence/persistence.js';
import { StepNotStored } from '../persistence/step-not-stored.js';
import type { HistoryEvent } from '../threads/thread-history.js';
import type { Thread } from '../threads/thread.js';
import { WorkflowStepFailed } from '../threads/thread-errors.js';
import { projectThread } from '../threads/thread-projection.js';
import type { EmailStateValues } from '../workflow/state.js';
import { firstRunInput } from './earlier-exchange.js';
import { runConfig, stateConfig } from './graph-config.js';
import { stepEvents } from './history-events.js';
import { log, now, type OperationDeps } from './operation-deps.js';
import { recordFailure } from './record-failure.js';

/**
 * Runs a thread's model job (src/jobs/model-jobs.ts) — whether the instance that sent it runs
 * it at once or another instance's worker takes it after a crash — and commits its result in ONE
 * statement: the view by compare-and-set (`drafting` at the revision read, to `awaiting_review`),
 * its history events, the job's deletion and (PostgreSQL) the run's checkpoint, deferred to it
 * (DeferredSaver). The graph resumes from the thread's checkpoint, so a rerun does not repeat a
 * step that was saved, nor anything at all when the run had finished and only the commit was lost. A thread that is not
 * `drafting` (a rerun of a job whose result is in) only has its job finished.
 *
 * A failed run is recorded (`failed`, retryable, in the history; the job finished); a model
 * failure answers 502/503. With the database away nothing can be recorded: the error is thrown and
 * the job runs again later.
 */
export async function runModelJob(
  deps: OperationDeps,
  job: ModelJob,
  jobId: string,
  /**
   * The thread its create has just committed with this job: nothing can have run or checkpointed
   * it yet (no other instance takes the job before its lease), so it is neither read back nor is
   * the checkpoint looked at before the run.
   */
  created?: Thread,
): Promise<Thread | undefined> {
  const thread = created ?? (await deps.threads.get(job.thread_id));
  if (thread?.status !== 'drafting') {
    await deps.decide((tx) => deps.modelJobs.finish(jobId, tx.client));
    return thread;
  }
  // PostgreSQL: the run's checkpoint commits with its result, in one statement.
  const run = deps.deferWrites?.({ fresh: created !== undefined });
  let values: Partial<EmailStateValues>;
  try {
    values = await runGraph(deps, thread, created !== undefined, run);
  } catch (error) {
    if (error instanceof DatabaseUnavailable) throw error;
    await keepSteps(deps, thread, run);
    const failed = await recordFailure(deps, thread, error, jobId);
    if (error instanceof ModelUnavailable)
      throw new ModelUnavailableAnswer(thread.thread_id, error);
    if (isModelFailure(error))
      throw new WorkflowStepFailed(failed, failed.error!, { cause: error });
    throw error;
  }
  const view = projectThread(thread, values, now(deps));
  const events = resultEvents(job, thread, view);
  return (
    deps.threads
      .saveDecision(
        view,
        thread.revision,
        events,
        undefined,
        'drafting',
        jobId,
        await run?.checkpointWrites(),
      )
      // Another run of this job committed first: its result stands.
      .then(async (saved) => (saved ? view : ((await deps.threads.get(thread.thread_id)) ?? view)))
      .catch(async (error: unknown) => {
        // The run's checkpoint is kept on its own if it can be: the rerun then asks the model nothing.
        await keepSteps(deps, thread, run);
        if (error instanceof DatabaseUnavailable) throw error;
        // The view itself was refused (a rerun would be too): the thread is failed, not left drafting.
        await recordFailure(deps, thread, error, jobId);
        throw new StepNotStored(thread.thread_id, error);
      })
  );
}

/**
 * A run whose result is not committed keeps the steps it finished: its deferred checkpoint is
 * written on its own, through the service's saver (as the run would have written it), so a retry
 * or a rerun skips them.
 */
async function keepSteps(deps: OperationDeps, thread: Thread, run: DeferredWrites | undefined) {
  const saver = deps.graph.checkpointer;
  await run
    ?.flush(saver instanceof BaseCheckpointSaver ? saver : undefined)
    .catch((error: unknown) => {
      log(deps).warn({ err: error, thread_id: thread.thread_id }, 'could not keep the run’s steps');
    });
}

/** Runs the graph from where the checkpoint stands; returns its values when it stops. */
async function runGraph(
  deps: OperationDeps,
  thread: Thread,
  fresh: boolean,
  run: DeferredWrites | undefined,
): Promise<Partial<EmailStateValues>> {
  const threadId = thread.thread_id;
  const graph = run ? deps.graphOn(run.checkpointer) : deps.graph;
  const snapshot = fresh ? undefined : await graph.getState(stateConfig(threadId));
  const values = (snapshot?.values ?? {}) as Partial<EmailStateValues>;
  // Paused before `send` already (the run finished, its commit was lost): resuming here would run
  // `send` without an approval, so only the view is derived.
  if (snapshot && values.inbound !== undefined && isSettled(snapshot)) return values;
  // Nothing checkpointed yet (a new thread, or its first run died early): start from the email.
  const input = values.inbound === undefined ? await firstRunInput(deps, thread) : null;
  const ran = await graph.invoke(input, runConfig(threadId));
  // Committing a run that stopped short would leave the thread `drafting` with its job finished.
  if (ran.reply === undefined) throw new Error('the run stopped before its draft');
  return ran;
}

/**
 * Whether the checkpoint is paused before `send`, with no failed step. `next` is empty, not
 * `['send']`, when a crash came between a step's saved writes and the checkpoint after it (LangGraph
 * counts the step as done): that run must go on.
 */
function isSettled(snapshot: StateSnapshot): boolean {
  return (
    snapshot.tasks.every((task) => !task.error) &&
    snapshot.next.length > 0 &&
    snapshot.next.every((node) => node === 'send')
  );
}

/** What the history records with the result: the model's steps, or the reviewer's redraft. */
function resultEvents(job: ModelJob, before: Thread, view: Thread): HistoryEvent[] {
  const at = view.updated_at;
  if (job.kind !== 'redraft') return stepEvents(before, view, at);
  return [
    {
      type: 'redrafted',
      at,
      actor: job.actor ?? 'anonymous',
      revision: view.revision,
      instructions: job.instructions ?? '',
    },
  ];
}
