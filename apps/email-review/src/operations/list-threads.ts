import { decodeCursor, encodeCursor } from '../threads/cursor.js';
import type { GROUNDING_STATUSES } from '../knowledge/grounding.js';
import type { Thread } from '../threads/thread.js';
import type { ListQuery } from '../threads/thread-store.js';
import type { OperationDeps } from './thread-service.js';

/** The most threads one filtered page reads; past it the page ends short, with a cursor to go on. */
export const FILTER_SCAN_MAX = 1_000;

export interface ThreadListRequest extends Omit<ListQuery, 'before'> {
  category?: string | undefined;
  grounding?: (typeof GROUNDING_STATUSES)[number] | undefined;
  cursor?: string | undefined;
}

const matches = (thread: Thread, request: ThreadListRequest) =>
  (!request.category || thread.classification?.category === request.category) &&
  (!request.grounding || thread.grounding?.status === request.grounding);

/**
 * One page of threads, newest first, from the index alone (no checkpoint is read). The index pages
 * by status and delivery only, so category and grounding filter what it reads: page after page, each
 * at most as long as what is still missing. A filtered page may end short of `limit`
 * (FILTER_SCAN_MAX threads read) with a `next_cursor`.
 */
export async function listThreads(
  deps: Pick<OperationDeps, 'threads'>,
  request: ThreadListRequest,
): Promise<{ items: Thread[]; next_cursor: string | null }> {
  const items: Thread[] = [];
  let before = request.cursor ? decodeCursor(request.cursor) : undefined;
  for (let read = 0; items.length < request.limit && read < FILTER_SCAN_MAX;) {
    const page = await deps.threads.list({
      status: request.status,
      delivery: request.delivery,
      limit: request.limit - items.length,
      before,
    });
    read += page.threads.length;
    items.push(...page.threads.filter((thread) => matches(thread, request)));
    if (page.next === undefined) return { items, next_cursor: null };
    before = page.next;
  }
  return { items, next_cursor: before === undefined ? null : encodeCursor(before) };
}
