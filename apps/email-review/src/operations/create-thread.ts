import { randomUUID } from 'node:crypto';
import { withThreadLock } from '../locks/with-thread-lock.js';
import type { Thread } from '../threads/thread.js';
import { IdempotencyKeyReused } from '../threads/thread-errors.js';
import { changeThread } from './change-thread.js';
import { log, now, type OperationDeps } from './operation-deps.js';

export interface CreatedThread {
  thread: Thread;
  /** False when the Idempotency-Key already created this thread. */
  created: boolean;
}

/** Classifies and drafts; answers with the thread paused for review (or the key's earlier thread). */
export async function createThread(
  deps: OperationDeps,
  inbound: string,
  idempotencyKey?: string,
): Promise<CreatedThread> {
  const fresh = newThread(randomUUID(), inbound, now(deps));
  // Locked before it exists, so a retry can never take a thread whose first run is under way.
  return withThreadLock(deps.locks, fresh.thread_id, async () => {
    const { thread, created } = await deps.threads.create(fresh, idempotencyKey);
    if (!created) return { thread: sameEmail(thread, inbound), created: false };
    log(deps).info({ thread_id: thread.thread_id }, 'thread created');
    const drafted = await changeThread(deps, thread, {
      altersDraft: true,
      checkpoint: [{ run: { inbound } }],
    });
    return { thread: drafted, created: true };
  });
}

/** In the index before the first run: `drafting`, so not reviewable until the run's view is saved. */
function newThread(threadId: string, inbound: string, at: string): Thread {
  return {
    thread_id: threadId,
    status: 'drafting',
    inbound,
    classification: null,
    draft: null,
    revision: 0,
    created_at: at,
    updated_at: at,
    sent_at: null,
    error: null,
  };
}

/** A repeated Idempotency-Key answers with its thread, but only for the same email. */
function sameEmail(thread: Thread, inbound: string): Thread {
  if (thread.inbound !== inbound) throw new IdempotencyKeyReused(thread.thread_id);
  return thread;
}
