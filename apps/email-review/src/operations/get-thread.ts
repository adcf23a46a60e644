import type { ThreadHistoryView } from '../threads/thread-history.js';
import type { Thread } from '../threads/thread.js';
import { ThreadNotFound } from '../threads/thread-errors.js';
import type { OperationDeps } from './thread-service.js';

/** The thread as the index shows it; 404 when no thread has this id. */
export async function getThread(
  deps: Pick<OperationDeps, 'threads'>,
  threadId: string,
): Promise<Thread> {
  const thread = await deps.threads.get(threadId);
  if (!thread) throw new ThreadNotFound(threadId);
  return thread;
}

/** The thread's history, oldest first; 404 when no thread has this id. */
export async function getThreadHistory(
  deps: Pick<OperationDeps, 'threads'>,
  threadId: string,
): Promise<ThreadHistoryView> {
  await getThread(deps, threadId);
  return { thread_id: threadId, events: await deps.threads.history.list(threadId) };
}
