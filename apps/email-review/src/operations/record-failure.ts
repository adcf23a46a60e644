import { APIError } from 'openai';
import { isModelFailure, ModelOutputInvalid } from '../llm/llm-errors.js';
import type { HistoryEvent } from '../threads/thread-history.js';
import type { Thread, ThreadError } from '../threads/thread.js';
import { projectThread } from '../threads/thread-projection.js';
import type { EmailStateValues } from '../workflow/state.js';
import { log, now, stateConfig, type OperationDeps } from './thread-service.js';

/**
 * Marks a failed model job's thread `failed` (retryable) with the steps its run completed, in its
 * history too, and finishes the job, in one transaction; when that fails it is logged (the job reruns).
 */
export async function recordFailure(
  deps: OperationDeps,
  thread: Thread,
  error: unknown,
  jobId: string,
): Promise<Thread> {
  const threadId = thread.thread_id;
  let progressed = thread;
  try {
    const snapshot = await deps.graph.getState(stateConfig(threadId));
    progressed = projectThread(
      thread,
      snapshot.values as Partial<EmailStateValues>,
      thread.updated_at,
    );
  } catch (readError) {
    log(deps).warn({ err: readError, thread_id: threadId }, 'could not read the failed run state');
  }
  const failed: Thread = {
    ...progressed,
    status: 'failed',
    error: describeFailure(error),
    updated_at: now(deps),
  };
  log(deps).warn(
    { thread_id: threadId, code: failed.error!.code, err: error },
    'workflow step failed',
  );
  const at = failed.updated_at;
  const events: HistoryEvent[] = [
    ...stepEvents(thread, failed, at),
    { type: 'failed', at, actor: 'system', code: failed.error!.code },
  ];
  try {
    await deps.transaction(async (tx) => {
      await deps.modelJobs.finish(jobId, tx);
      const change = { view: failed, revision: thread.revision, from: 'drafting' as const };
      await deps.threads.saveDecision(tx, { ...change, events });
    });
  } catch (saveError) {
    log(deps).error({ err: saveError, thread_id: threadId }, 'could not record the failure');
  }
  return failed;
}

/** What a workflow run did between two views of a thread: classified it, drafted a new revision. */
export function stepEvents(before: Thread, after: Thread, at: string): HistoryEvent[] {
  const events: HistoryEvent[] = [];
  if (after.classification && !before.classification)
    events.push({
      type: 'classified',
      at,
      actor: 'model',
      category: after.classification.category,
      urgency: after.classification.urgency,
    });
  if (after.revision > before.revision)
    events.push({ type: 'drafted', at, actor: 'model', revision: after.revision });
  return events;
}

/** What a failed thread records about why: a stable code and a message without user text. */
export function describeFailure(error: unknown): ThreadError {
  if (error instanceof ModelOutputInvalid)
    return { code: 'llm_output_invalid', message: error.message };
  if (error instanceof APIError && error.status !== undefined)
    return { code: 'llm_unavailable', message: `The model provider answered ${error.status}.` };
  if (isModelFailure(error))
    return {
      code: 'llm_unavailable',
      message: `The model provider could not be reached (${error.name}).`,
    };
  return { code: 'internal_error', message: 'The workflow step failed unexpectedly.' };
}
