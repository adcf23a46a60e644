import type pg from 'pg';
import { table } from '../db/tables.js';
import type { Persistence } from '../persistence/persistence.js';
import type { ThreadStore } from '../threads/thread-store.js';
import { THREAD_STATUSES, type ThreadStatus } from '../threads/thread.js';

/** What the index says right now: threads by status, and messages waiting in the delivery queue. */
export interface IndexCounts {
  threads: Record<ThreadStatus, number>;
  queuedDeliveries: number;
}

const noThreads = () =>
  Object.fromEntries(THREAD_STATUSES.map((status) => [status, 0])) as Record<ThreadStatus, number>;

/**
 * Two indexed counts in one round trip (the status index and the due-deliveries partial index), read
 * on each scrape rather than kept in step with every change.
 */
function postgresCounts(pool: pg.Pool, schema: string) {
  const sql = `SELECT status, count(*)::int AS n FROM ${table(schema, 'email_threads')} GROUP BY status
               UNION ALL
               SELECT '~queued', count(*)::int FROM ${table(schema, 'email_deliveries')} WHERE status = 'queued'`;
  return async (): Promise<IndexCounts> => {
    const { rows } = await pool.query<{ status: string; n: number }>(sql);
    const threads = noThreads();
    let queuedDeliveries = 0;
    for (const { status, n } of rows) {
      if (status === '~queued') queuedDeliveries = n;
      else if (status in threads) threads[status as ThreadStatus] = n;
    }
    return { threads, queuedDeliveries };
  };
}

async function countListed(
  store: ThreadStore,
  query: { status?: ThreadStatus; delivery?: 'queued' },
) {
  let count = 0;
  let before: number | undefined;
  do {
    const page = await store.list({ ...query, limit: 1000, before });
    count += page.threads.length;
    before = page.next;
  } while (before !== undefined);
  return count;
}

/** Memory mode: the index is a map in this process, so listing it is the count. */
function memoryCounts(store: ThreadStore) {
  return async (): Promise<IndexCounts> => {
    const threads = noThreads();
    for (const status of THREAD_STATUSES) threads[status] = await countListed(store, { status });
    return { threads, queuedDeliveries: await countListed(store, { delivery: 'queued' }) };
  };
}

export function indexCounts(persistence: Persistence): () => Promise<IndexCounts> {
  return persistence.database
    ? postgresCounts(persistence.database.pool, persistence.database.schema)
    : memoryCounts(persistence.threads);
}
