import { currentActor } from '@repo/http-kit';
import type { Thread } from '../threads/thread.js';
import { ThreadMovedOn, ThreadNotRetryable } from '../threads/thread-errors.js';
import { getThread } from './get-thread.js';
import { now, type OperationDeps } from './thread-service.js';
import { runModelJob } from './run-model-job.js';

/**
 * Resumes a `failed` thread from its last checkpoint: one transaction marks it `drafting`
 * (compare-and-set), records `retried` and queues its model job, which then runs here at once.
 */
export async function retryThread(deps: OperationDeps, threadId: string): Promise<Thread> {
  const thread = await getThread(deps, threadId);
  // A `drafting` thread has its model job, which the queue reruns.
  if (thread.status !== 'failed') throw new ThreadNotRetryable(thread);
  const at = now(deps);
  const marked: Thread = { ...thread, status: 'drafting', error: null, updated_at: at };
  const job = { thread_id: threadId, kind: 'retry' as const };
  const jobId = await deps
    .transaction(async (tx) => {
      const retried = { type: 'retried' as const, at, actor: currentActor() };
      const change = { view: marked, revision: thread.revision, from: 'failed' as const };
      if (!(await deps.threads.saveDecision(tx, { ...change, events: [retried] })))
        throw new ThreadMovedOn(threadId);
      return deps.modelJobs.send(job, tx);
    })
    .catch(async (error: unknown) => {
      // Another retry (or nothing: it is no longer failed) got there first.
      if (error instanceof ThreadMovedOn)
        throw new ThreadNotRetryable(await getThread(deps, threadId));
      throw error;
    });
  return (await runModelJob(deps, job, jobId)) ?? marked;
}
