import { ThreadLeaseLost } from '../locks/lock-errors.js';
import type { HistoryEvent } from '../threads/thread-history.js';
import type { Thread } from '../threads/thread.js';
import { describeFailure } from '../threads/failure.js';
import { projectThread } from '../threads/thread-projection.js';
import type { EmailStateValues } from '../workflow/state.js';
import { stateConfig } from './graph-config.js';
import { stepEvents } from './history-events.js';
import { log, now, type OperationDeps } from './operation-deps.js';

/**
 * Keeps a failed run's thread as `failed` (retryable) in the index, with the steps the run completed
 * (its checkpoint keeps them, e.g. the classification), and in its history: `lead`, the completed
 * steps, then `failed`. `done` names those steps when the change knows them (its checkpoint writes
 * all landed and only its index write failed: e.g. a reviewer's `edited`, not a `drafted` by the
 * model). Throws only ThreadLeaseLost (the thread is another change's now); otherwise the run's own
 * failure is what the client must hear about.
 */
export async function recordFailure(
  deps: OperationDeps,
  thread: Thread,
  error: unknown,
  lead: HistoryEvent[] = [],
  done?: HistoryEvent[],
): Promise<Thread> {
  const threadId = thread.thread_id;
  let progressed = thread;
  let read = false;
  try {
    const snapshot = await deps.graph.getState(stateConfig(threadId));
    progressed = projectThread(
      thread,
      snapshot.values as Partial<EmailStateValues>,
      thread.updated_at,
    );
    read = true;
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
    ...lead,
    // The change's own events only with the view they describe (unread, the view stays as it was).
    ...(done && read ? done : stepEvents(thread, failed, at)),
    { type: 'failed', at, actor: 'system', code: failed.error!.code },
  ];
  try {
    await deps.threads.save(failed, events);
  } catch (saveError) {
    // Another change took the thread over while this one ran: the answer is that, not the failure.
    if (saveError instanceof ThreadLeaseLost) throw saveError;
    log(deps).error({ err: saveError, thread_id: threadId }, 'could not record the failure');
  }
  return failed;
}
