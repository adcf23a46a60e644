import { setTimeout as sleep } from 'node:timers/promises';
import type PgBoss from 'pg-boss';

/** One queue's workers: `concurrency` loops, each looking again `pollMs` after finding nothing. */
export interface WorkOptions {
  concurrency: number;
  pollMs: number;
}

/** One job's work; `lastTry` when pg-boss will not retry it. A throw fails the job. */
export type JobHandler<T> = (job: PgBoss.JobWithMetadata<T>, lastTry: boolean) => Promise<void>;

export interface QueueWorkers {
  /** Lets each worker finish the job it holds, then ends them. */
  stop(): Promise<void>;
}

/**
 * The queue's workers on pg-boss's public fetch, complete and fail, each awaited and caught (why
 * not pg-boss 10's `work()`: the register's `pg-boss-queue-workers`). A fetch, complete or fail the
 * database refused goes to `onQueueError`; a taken job is handed out again once its lease expires.
 */
export function startQueueWorkers<T extends object>(
  options: WorkOptions & {
    boss: PgBoss;
    queue: string;
    handler: JobHandler<T>;
    onQueueError: (error: unknown) => void;
  },
): QueueWorkers {
  const stopping = new AbortController();
  const settle = async (write: () => Promise<unknown>) => {
    try {
      await write();
    } catch (error) {
      options.onQueueError(error);
    }
  };
  const loop = async () => {
    while (!stopping.signal.aborted) {
      let job: PgBoss.JobWithMetadata<T> | undefined;
      // pg-boss's fetch answers [] when the database is away (it swallows the error itself).
      await settle(async () => {
        [job] = await options.boss.fetch<T>(options.queue, { batchSize: 1, includeMetadata: true });
      });
      if (!job) {
        await sleep(options.pollMs, undefined, { signal: stopping.signal }).catch(() => {});
        continue;
      }
      let failure: unknown;
      const taken = job;
      try {
        await options.handler(taken, taken.retryCount >= taken.retryLimit);
      } catch (error) {
        failure = error;
      }
      await settle(() =>
        failure === undefined
          ? options.boss.complete(options.queue, taken.id)
          : options.boss.fail(options.queue, taken.id, {
              message: failure instanceof Error ? failure.message : String(failure),
            }),
      );
    }
  };
  const loops = Array.from({ length: options.concurrency }, loop);
  return {
    async stop() {
      stopping.abort();
      await Promise.all(loops);
    },
  };
}
