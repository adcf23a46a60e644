import { setTimeout as delay } from 'node:timers/promises';
import { withTransaction } from '@repo/pg-kit';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { JobRunner } from '../jobs/job-runner.js';
import { queueSchema, table } from '../db/tables.js';

export interface RetentionSettings {
  /** Finished threads (rejected; reply delivered or logged) older than this are deleted (THREAD_RETENTION_DAYS). */
  days: number;
  /**
   * Days before a thread whose reply did not go out (or whose draft failed) is deleted: a reviewer
   * may still redeliver or retry it (THREAD_RETENTION_UNSENT_DAYS; default max(30, `days`)).
   */
  unsentDays?: number;
  /** Threads deleted per transaction (default 100). */
  batchSize?: number;
  /** Pause between two batches, so that a backlog never crowds out the service (default 50 ms). */
  pauseMs?: number;
}

const JOB = 'thread-retention';
/** Every hour, at minute 17 (pg-boss's cron syntax). */
const CRON = '17 * * * *';
const DAY_MS = 86_400_000;
/** How long, at least, a reviewer has to redeliver or retry a thread whose reply did not go out. */
const UNSENT_DAYS_DEFAULT = 30;
/** How often the worker looks for the scheduler's job. */
const POLL_MS = 30_000;

/**
 * Deletes, in one short transaction, up to `limit` threads past their cutoff with every row of
 * theirs: each table with a `thread_id` column (checkpoints, deliveries, history, any added later),
 * their queue jobs, and last their index row. Threads awaiting review, drafting, or with a delivery
 * still queued are never picked. `finished`: the cutoff of threads nothing more will happen to
 * (rejected, delivered, logged); `unsent`: of those a reviewer may still redeliver or retry.
 */
function finishedThreadDeleter(pool: pg.Pool, schema: string) {
  const threads = table(schema, 'email_threads');
  const deliveries = table(schema, 'email_deliveries');
  const queue = queueSchema(schema);
  // Rows another transaction holds are skipped (next run takes them): nothing here ever waits.
  // No cutoff (NULL) for any other state: the comparison is never true.
  const pick = `SELECT t.thread_id FROM ${threads} t LEFT JOIN ${deliveries} d USING (thread_id)
                WHERE GREATEST((t.view->>'updated_at')::timestamptz, d.delivered_at, d.updated_at) <
                  CASE WHEN t.status = 'rejected' OR d.status IN ('delivered', 'logged') THEN $1::timestamptz
                       WHEN t.status = 'failed' OR d.status IN ('failed', 'no_recipient') THEN $2::timestamptz
                  END
                ORDER BY t.seq LIMIT $3
                FOR UPDATE OF t SKIP LOCKED`;
  const ownedTables = `SELECT c.table_name FROM information_schema.columns c
                       JOIN information_schema.tables t USING (table_schema, table_name)
                       WHERE c.table_schema = $1 AND c.column_name = 'thread_id'
                         AND t.table_type = 'BASE TABLE' AND c.table_name <> 'email_threads'`;
  const queueTables = `SELECT table_name FROM information_schema.tables
                       WHERE table_schema = $1 AND table_name IN ('job', 'archive')`;

  return (cutoffs: { finished: Date; unsent: Date }, limit: number): Promise<number> =>
    withTransaction(pool, async (client) => {
      const picked = await client.query<{ thread_id: string }>(pick, [
        cutoffs.finished,
        cutoffs.unsent,
        limit,
      ]);
      const ids = picked.rows.map((row) => row.thread_id);
      if (ids.length === 0) return 0;
      // Looked up each batch: a table added by a later migration (or another instance) counts at once.
      const owned = await client.query<{ table_name: string }>(ownedTables, [schema]);
      for (const { table_name } of owned.rows)
        await client.query(`DELETE FROM ${table(schema, table_name)} WHERE thread_id = ANY($1)`, [
          ids,
        ]);
      const jobs = await client.query<{ table_name: string }>(queueTables, [queue]);
      for (const { table_name } of jobs.rows)
        await client.query(
          `DELETE FROM ${table(queue, table_name)} WHERE data->>'thread_id' = ANY($1)`,
          [ids],
        );
      await client.query(`DELETE FROM ${threads} WHERE thread_id = ANY($1)`, [ids]);
      return ids.length;
    });
}

/** Retention off (THREAD_RETENTION_DAYS unset, or memory mode): threads are kept forever. */
const KEEP_FOREVER = {
  start: async () => {},
  runOnce: async () => 0,
  stop: async () => {},
};

/**
 * Deletes finished threads past the retention period, in small batches, from a job pg-boss's
 * scheduler creates on `cron`: one job per tick on a singleton queue, so a pass runs once across
 * all instances. Without settings, or without a database (memory mode), nothing is ever deleted.
 */
export function createThreadRetention(deps: {
  database: { pool: pg.Pool; schema: string; jobs: JobRunner } | undefined;
  settings: RetentionSettings | undefined;
  logger: Logger;
  clock?: (() => Date) | undefined;
}) {
  if (!deps.settings) return KEEP_FOREVER;
  if (!deps.database) {
    deps.logger.warn(
      'THREAD_RETENTION_DAYS has no effect in memory mode (nothing outlives the process)',
    );
    return KEEP_FOREVER;
  }
  const { pool, schema, jobs } = deps.database;
  const { days, batchSize = 100, pauseMs = 50 } = deps.settings;
  const unsentDays = deps.settings.unsentDays ?? Math.max(days, UNSENT_DAYS_DEFAULT);
  const deleteBatch = finishedThreadDeleter(pool, schema);
  const queue = jobs.queue(JOB, { policy: 'singleton' });

  /** One whole pass now, batch after batch; says how many threads went. The scheduled job runs this. */
  const runOnce = async () => {
    const now = (deps.clock?.() ?? new Date()).getTime();
    const cutoffs = {
      finished: new Date(now - days * DAY_MS),
      unsent: new Date(now - unsentDays * DAY_MS),
    };
    let deleted = 0;
    for (;;) {
      const batch = await deleteBatch(cutoffs, batchSize);
      deleted += batch;
      if (batch < batchSize) break;
      await delay(pauseMs);
    }
    if (deleted > 0)
      deps.logger.info(
        { deleted, cutoff: cutoffs.finished.toISOString(), days, unsent_days: unsentDays },
        'finished threads deleted',
      );
    return deleted;
  };

  return {
    runOnce,
    async start() {
      await queue.schedule(CRON);
      await queue.work({ concurrency: 1, pollMs: POLL_MS }, async () => {
        await runOnce();
      });
    },
    stop: () => queue.stop(),
  };
}
