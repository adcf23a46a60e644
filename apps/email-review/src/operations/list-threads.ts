import { decodeCursor, encodeCursor } from '../threads/cursor.js';
import type { DeliveryStatus } from '../delivery/delivery.js';
import type { Thread, ThreadStatus } from '../threads/thread.js';
import type { OperationDeps } from './thread-service.js';

export interface ThreadListRequest {
  status?: ThreadStatus;
  delivery?: DeliveryStatus;
  limit: number;
  cursor?: string;
}

export interface ThreadList {
  items: Thread[];
  next_cursor: string | null;
}

/** One page of threads, newest first, from the index alone (no checkpoint is read). */
export async function listThreads(
  deps: Pick<OperationDeps, 'threads'>,
  request: ThreadListRequest,
): Promise<ThreadList> {
  const page = await deps.threads.list({
    limit: request.limit,
    status: request.status,
    delivery: request.delivery,
    ...(request.cursor ? { before: decodeCursor(request.cursor) } : {}),
  });
  return {
    items: page.threads,
    next_cursor: page.next === undefined ? null : encodeCursor(page.next),
  };
}
