import type { HistoryEvent } from '../threads/thread-history.js';
import type { Thread } from '../threads/thread.js';
import { describeFailure } from '../threads/failure.js';
import { projectThread } from '../threads/thread-projection.js';
import type { EmailStateValues } from '../workflow/state.js';
import { log, now, stateConfig, type OperationDeps } from './thread-service.js';

/**
 * Marks a failed model job's thread `failed` (retryable), keeping the steps its run completed, and
 * records them and `failed` in its history; the job is finished in the same transaction. When that
 * cannot be written it is logged, and the job runs again later.
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
