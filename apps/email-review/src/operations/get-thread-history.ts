import type { ThreadHistoryView } from '../threads/thread-history.js';
import { getThread } from './get-thread.js';
import type { OperationDeps } from './thread-service.js';

/** The thread's history, oldest first; 404 when no thread has this id. */
export async function getThreadHistory(
  deps: Pick<OperationDeps, 'threads' | 'history'>,
  threadId: string,
): Promise<ThreadHistoryView> {
  await getThread(deps, threadId);
  return { thread_id: threadId, events: await deps.history.list(threadId) };
}
