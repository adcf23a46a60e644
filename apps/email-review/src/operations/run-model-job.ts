import type { StateSnapshot } from '@langchain/langgraph';
import { DatabaseUnavailable } from '@repo/pg-kit';
import { isModelFailure, ModelUnavailable, ModelUnavailableAnswer } from '../llm/llm-errors.js';
import type { ModelJob } from '../jobs/model-jobs.js';
import type { HistoryEvent } from '../threads/thread-history.js';
import type { Thread } from '../threads/thread.js';
import { StepNotStored, WorkflowStepFailed } from '../threads/thread-errors.js';
import { projectThread } from '../threads/thread-projection.js';
import type { EmailStateValues } from '../workflow/state.js';
import { firstRunInput } from './earlier-exchange.js';
import { learnFromInstructions } from '../quality/learn-from-decision.js';
import { now, runConfig, stateConfig, type OperationDeps } from './thread-service.js';
import { recordFailure, stepEvents } from './record-failure.js';

/**
 * Runs a thread's model job, here at once or in another instance's worker after a crash; then one
 * transaction commits the view (`drafting` to `awaiting_review`), its history and the job's end. A
 * rerun resumes from the checkpoint. A failed run is recorded `failed` (a model failure answers
 * 502/503); with the database away it throws, and the job runs again later.
 */
export async function runModelJob(
  deps: OperationDeps,
  job: ModelJob,
  jobId: string,
  /** The thread its create just committed: no one can have run it yet, so it is not read back. */
  created?: Thread,
): Promise<Thread | undefined> {
  const thread = created ?? (await deps.threads.get(job.thread_id));
  if (thread?.status !== 'drafting') {
    await deps.transaction((tx) => deps.modelJobs.finish(jobId, tx));
    return thread;
  }
  let values: Partial<EmailStateValues>;
  try {
    values = await runGraph(deps, thread, created !== undefined);
  } catch (error) {
    if (error instanceof DatabaseUnavailable) throw error;
    const failed = await recordFailure(deps, thread, error, jobId);
    if (error instanceof ModelUnavailable)
      throw new ModelUnavailableAnswer(thread.thread_id, error);
    if (isModelFailure(error))
      throw new WorkflowStepFailed(failed, failed.error!, { cause: error });
    throw error;
  }
  const view = projectThread(thread, values, now(deps));
  const change = { view, revision: thread.revision, from: 'drafting' as const };
  const events = resultEvents(job, thread, view);
  try {
    const saved = await deps.transaction(async (tx) => {
      await deps.modelJobs.finish(jobId, tx);
      const committed = await deps.threads.saveDecision(tx, { ...change, events });
      // A redraft's instructions are a reviewer's lesson: derived once the redraft is in, so the
      // derivation's model call never competes with the redraft's.
      if (committed && job.kind === 'redraft')
        await learnFromInstructions(deps, tx, thread, {
          instructions: job.instructions ?? '',
          actor: job.actor ?? 'anonymous',
          at: view.updated_at,
        });
      return committed;
    });
    // Another run of this job committed first: its result stands.
    return saved ? view : ((await deps.threads.get(thread.thread_id)) ?? view);
  } catch (error) {
    if (error instanceof DatabaseUnavailable) throw error;
    // The view itself was refused (a rerun would be too): the thread is failed, not left drafting.
    await recordFailure(deps, thread, error, jobId);
    throw new StepNotStored(thread.thread_id, error);
  }
}

/** Runs the graph from where the checkpoint stands; returns its values when it stops. */
async function runGraph(
  deps: OperationDeps,
  thread: Thread,
  fresh: boolean,
): Promise<Partial<EmailStateValues>> {
  const threadId = thread.thread_id;
  const snapshot = fresh ? undefined : await deps.graph.getState(stateConfig(threadId));
  const values = (snapshot?.values ?? {}) as Partial<EmailStateValues>;
  // Paused before `send` already (the run finished, its commit was lost): resuming here would run
  // `send` without an approval, so only the view is derived.
  if (snapshot && values.inbound !== undefined && isSettled(snapshot)) return values;
  // Nothing checkpointed yet (a new thread, or its first run died early): start from the email.
  const input = values.inbound === undefined ? await firstRunInput(deps, thread) : null;
  const ran = await deps.graph.invoke(input, runConfig(threadId, fresh));
  // Committing a run that stopped short would leave the thread `drafting` with its job finished.
  if (ran.reply === undefined) throw new Error('the run stopped before its draft');
  return ran;
}

/** Paused before `send` with no failed step (`next` is empty when a crash cut a step short). */
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
