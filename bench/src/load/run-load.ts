import { StepTimer } from './step-timer.js';

export interface LoadOptions {
  /** Iterations to run in all (an iteration is one lifecycle or one chat). */
  total: number;
  /** Iterations in flight at once. */
  concurrency: number;
  /** No new iteration starts after this long; the result says how many completed. */
  maxMs?: number;
  /**
   * Worker k starts its first iteration k × rampMs ÷ concurrency after worker 0, so arrivals are
   * spread over `rampMs` as independent users' are, not all sent in the same millisecond.
   */
  rampMs?: number;
}

export interface LoadResult {
  completed: number;
  failed: number;
  wallMs: number;
  /** Completed iterations per second of wall time. */
  perSecond: number;
  /** Durations of whole iterations (ms). */
  iterations: number[];
  steps: StepTimer;
  /** The first few failures, for the report. */
  errors: string[];
}

export type Iteration = (index: number, timer: StepTimer) => Promise<void>;

/**
 * A closed-loop load generator: `concurrency` workers each take the next iteration as soon as their
 * last one ends, until `total` have started (or `maxMs` passed). Failures are counted, not thrown.
 */
export async function runLoad(options: LoadOptions, iteration: Iteration): Promise<LoadResult> {
  const timer = new StepTimer();
  const iterations: number[] = [];
  const errors: string[] = [];
  let next = 0;
  let failed = 0;
  const started = performance.now();
  const deadline = options.maxMs === undefined ? Number.POSITIVE_INFINITY : started + options.maxMs;

  const worker = async (_: unknown, k: number) => {
    const offset = ((options.rampMs ?? 0) * k) / Math.max(1, options.concurrency);
    if (offset > 0) await new Promise((resolve) => setTimeout(resolve, offset));
    while (next < options.total && performance.now() < deadline) {
      const index = next++;
      const begin = performance.now();
      try {
        await iteration(index, timer);
        iterations.push(performance.now() - begin);
      } catch (err) {
        failed += 1;
        if (errors.length < 5) errors.push((err as Error).message.slice(0, 400));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  const wallMs = performance.now() - started;
  return {
    completed: iterations.length,
    failed,
    wallMs,
    perSecond: iterations.length / (wallMs / 1000),
    iterations,
    steps: timer,
    errors,
  };
}
