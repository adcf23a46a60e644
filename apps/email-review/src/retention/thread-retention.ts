import { setTimeout as delay } from 'node:timers/promises';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { JobRunner } from '../jobs/job-runner.js';
import { finishedThreadDeleter } from './delete-finished-threads.js';

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

export interface ThreadRetention {
  start(): Promise<void>;
  /** One whole pass now, batch after batch; says how many threads went. The scheduled job runs this. */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

const JOB = 'thread-retention';
/** Every hour, at minute 17 (pg-boss's cron syntax). */
const CRON = '17 * * * *';
const DAY_MS = 86_400_000;
/** How long, at least, a reviewer has to redeliver or retry a thread whose reply did not go out. */
const UNSENT_DAYS_DEFAULT = 30;
/** How often the worker looks for the scheduler's job. */
const POLL_MS = 30_000;

/** Retention off (THREAD_RETENTION_DAYS unset, or memory mode): threads are kept forever. */
const KEEP_FOREVER: ThreadRetention = {
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
}): ThreadRetention {
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
