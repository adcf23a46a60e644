import { setTimeout as sleep } from 'node:timers/promises';
import type PgBoss from 'pg-boss';

/** One queue's workers: `concurrency` loops, each looking again `pollMs` after finding nothing. */
export interface WorkOptions {
  concurrency: number;
  pollMs: number;
}

/** One job's work; `lastTry` when pg-boss will not retry it. A throw fails the job. */
export type JobHandler<T> = (job: PgBoss.JobWithMetadata<T>, lastTry: boolean) => Promise<void>;

/**
 * The queue's workers on pg-boss's public fetch, complete and fail, each awaited and caught (why
 * not pg-boss 10's `work()`: the register's `pg-boss-queue-workers`). A fetch, complete or fail the
 * database refused goes to `onQueueError`; a taken job is handed out again once its lease expires.
 * Returns the workers' stop: each finishes the job it holds.
 */
export function startQueueWorkers<T extends object>(
  options: WorkOptions & {
    boss: PgBoss;
    queue: string;
    handler: JobHandler<T>;
    onQueueError: (error: unknown) => void;
  },
): () => Promise<void> {
  const { boss, queue, handler, onQueueError } = options;
  const stopping = new AbortController();
  const loop = async () => {
    while (!stopping.signal.aborted) {
      // pg-boss's fetch answers [] when the database is away (it swallows the error itself).
      const [job] = await boss
        .fetch<T>(queue, { batchSize: 1, includeMetadata: true })
        .catch((error: unknown) => {
          onQueueError(error);
          return [];
        });
      if (!job) {
        await sleep(options.pollMs, undefined, { signal: stopping.signal }).catch(() => {});
        continue;
      }
      await Promise.resolve(job)
        .then((taken) => handler(taken, taken.retryCount >= taken.retryLimit))
        .then(
          () => boss.complete(queue, job.id),
          (error: unknown) =>
            boss.fail(queue, job.id, {
              message: error instanceof Error ? error.message : String(error),
            }),
        )
        .catch(onQueueError);
    }
  };
  const loops = Array.from({ length: options.concurrency }, loop);
  return async () => {
    stopping.abort();
    await Promise.all(loops);
  };
}
