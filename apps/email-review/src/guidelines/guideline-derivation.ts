import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { backoffMs } from '@repo/http-kit';
import type { Logger } from 'pino';
import type { JobRunner } from '../jobs/job-runner.js';
import type { Transaction } from '../persistence/transaction.js';
import type { DerivationInput } from './derive-guidelines.js';

/**
 * The background work that turns a reviewer's action into guidelines. The decision only queues it
 * (in its own transaction); the model call happens later, out of the approve's path.
 */
export interface GuidelineDerivation {
  /** Queues a derivation inside the decision's transaction `tx`. */
  send(input: DerivationInput, tx: Transaction): Promise<void>;
  start(): Promise<void>;
  /** Lets a running derivation finish, then ends the workers. */
  stop(): Promise<void>;
}

/** One derivation's work, given its job id; `lastAttempt` when a throw will not be retried. */
export type RunDerivation = (
  input: DerivationInput,
  jobId: string,
  lastAttempt: boolean,
) => Promise<void>;

const QUEUE = 'guideline-derivation';
/** Reruns of a derivation whose model call failed (after its own retries) or whose worker died. */
const DERIVATION_RETRIES = 3;
/** Memory mode's waits before those reruns: a second, then two, then four. */
const DERIVATION_BACKOFF = { firstMs: 1_000, maxMs: 4_000 };
const POLL_MS = 500;

/**
 * PostgreSQL: a pg-boss job sent in the decision's transaction (so it exists exactly when the
 * decision committed), taken by any instance's worker, retried or handed out again after the lease.
 */
export function queuedDerivation(
  jobs: JobRunner,
  run: RunDerivation,
  /** A derivation's worker is presumed dead after this long, and its job handed out again. */
  leaseSeconds: number,
): GuidelineDerivation {
  const queue = jobs.queue<DerivationInput>(QUEUE);
  return {
    async send(input, tx) {
      await queue.send(
        input,
        {
          retryLimit: DERIVATION_RETRIES,
          retryDelay: 1,
          retryBackoff: true,
          expireInSeconds: leaseSeconds,
        },
        tx.client,
      );
    },
    start: () =>
      queue.work({ concurrency: 1, pollMs: POLL_MS }, (job, lastTry) =>
        run(job.data, job.id, lastTry),
      ),
    stop: () => queue.stop(),
  };
}

/** Memory mode: a derivation runs in process once its decision committed, retried as the queue would. */
export function inProcessDerivation(run: RunDerivation, logger: Logger): GuidelineDerivation {
  const running = new Set<Promise<void>>();
  const runWithRetries = async (input: DerivationInput) => {
    const jobId = randomUUID();
    for (let attempt = 0; attempt <= DERIVATION_RETRIES; attempt += 1) {
      try {
        await run(input, jobId, attempt === DERIVATION_RETRIES);
        return;
      } catch {
        if (attempt < DERIVATION_RETRIES) await sleep(backoffMs(DERIVATION_BACKOFF, attempt + 1));
      }
    }
    logger.debug({ thread_id: input.thread_id }, 'guideline derivation gave up');
  };
  return {
    async send(input) {
      // After the decision's transaction: memory transactions run one at a time.
      const task = new Promise<void>((resolve) => setImmediate(resolve)).then(() =>
        runWithRetries(input),
      );
      running.add(task);
      void task.finally(() => running.delete(task));
    },
    start: async () => {},
    async stop() {
      await Promise.all(running);
    },
  };
}
