import { setTimeout as sleep } from 'node:timers/promises';
import { isDatabaseUnreachable, type DatabaseHealth } from '@repo/pg-kit';
import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';

export interface QueueWorkerOptions<T extends object> {
  boss: PgBoss;
  queue: string;
  /** Loops taking one job each. */
  concurrency: number;
  /** The pause before looking again when the queue had nothing due. */
  pollMs: number;
  /** One job's work (with its retry count and limit); a throw fails the job (pg-boss retries it). */
  handler: (job: PgBoss.JobWithMetadata<T>) => Promise<void>;
  /** A fetch, complete or fail the database refused (a taken job is handed out again after its lease). */
  onQueueError: (error: unknown) => void;
}

export interface QueueWorkers {
  /** Lets each worker finish the job it holds, then ends them. */
  stop(): Promise<void>;
}

/**
 * The queue's workers, on pg-boss's public fetch/complete/fail, each awaited and caught. pg-boss
 * 10's own `work()` neither awaits nor catches the complete/fail that follow a job (manager.js
 * `onFetch`; fixed in pg-boss 11, which needs Node 22): a database outage in the middle of a
 * delivery or a retention pass made an unhandled rejection, and the process stopped. Here a complete
 * or fail that cannot be written is reported, and the job is handed out again once its lease
 * expires (for deliveries, the record's row lock and status keep a retaken job from sending twice).
 */
export function startQueueWorkers<T extends object>(options: QueueWorkerOptions<T>): QueueWorkers {
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
        await options.handler(taken);
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

/** pg-boss polls on its own: an outage would log on every beat, so it counts as one outage. */
export function reportQueueError(
  settings: { health?: DatabaseHealth; logger: Logger },
  what: string,
  error: unknown,
): void {
  if (settings.health && isDatabaseUnreachable(error)) settings.health.markDown(error);
  else settings.logger.warn({ err: error }, `${what} error`);
}
