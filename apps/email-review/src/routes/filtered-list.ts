import type { ThreadService } from '../operations/thread-service.js';
import type { Thread } from '../threads/thread.js';
import type { GROUNDING_STATUSES } from '../knowledge/grounding.js';

/** The most threads one filtered page reads; past it the page ends short, with a cursor to go on. */
export const FILTER_SCAN_MAX = 1_000;

export interface ListFilter {
  category?: string | undefined;
  grounding?: (typeof GROUNDING_STATUSES)[number] | undefined;
}

const matches = (thread: Thread, filter: ListFilter) =>
  (!filter.category || thread.classification?.category === filter.category) &&
  (!filter.grounding || thread.grounding?.status === filter.grounding);

/**
 * A page of threads that pass the category and grounding filters, newest first. The index pages by
 * status and delivery only, so this reads its pages, each at most as long as what is still missing:
 * the last thread read is where the next page goes on, and the cursor stays the index's own. A page
 * may end short of `limit` (FILTER_SCAN_MAX threads read) with a `next_cursor`.
 */
export async function listFiltered(
  threads: Pick<ThreadService, 'listThreads'>,
  request: Parameters<ThreadService['listThreads']>[0] & ListFilter,
): ReturnType<ThreadService['listThreads']> {
  const { category, grounding, ...query } = request;
  if (!category && !grounding) return threads.listThreads(query);
  const items: Thread[] = [];
  let cursor = query.cursor;
  for (let read = 0; items.length < query.limit && read < FILTER_SCAN_MAX;) {
    const page = await threads.listThreads({
      ...query,
      limit: query.limit - items.length,
      ...(cursor ? { cursor } : {}),
    });
    read += page.items.length;
    items.push(...page.items.filter((thread) => matches(thread, { category, grounding })));
    if (!page.next_cursor) return { items, next_cursor: null };
    cursor = page.next_cursor;
  }
  return { items, next_cursor: cursor ?? null };
}
