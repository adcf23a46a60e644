import { chatMessages, type ChatDriver } from '../drivers/chat-driver.js';
import { inboundEmail, type EmailDriver } from '../drivers/email-driver.js';
import { runLoad, type Iteration, type LoadOptions, type LoadResult } from '../load/run-load.js';
import { summarize } from '../stats/percentiles.js';
import type { RunningSystem } from '../systems/system.js';
import { LOAD_MODES, type LoadModeKey, type SystemRun } from './results.js';

/** One lifecycle per iteration; `tag` makes every inbound text unique. */
export function emailIteration(driver: EmailDriver, tag: string): Iteration {
  return (i, timer) => driver.lifecycle(inboundEmail(i, `${tag}-${i}`), timer);
}

/** One chat (a fresh session and its messages) per iteration. */
export function chatIteration(driver: ChatDriver, tag: string, turns?: number): Iteration {
  return (i, timer) => driver.chat(`${tag}-${i}`, chatMessages(`${tag}-${i}`, turns), timer);
}

/** A few iterations that are not measured, so every system is measured warm (JIT, pools, connections). */
export async function warmUp(iteration: Iteration, count: number, concurrency = 1): Promise<void> {
  const result = await runLoad({ total: count, concurrency }, iteration);
  if (result.failed) throw new Error(`warm-up failed: ${result.errors.join('; ')}`);
}

/** Throws when too many iterations of a measured run failed for its numbers to mean anything. */
export function assertMostlySucceeded(label: string, result: LoadResult): void {
  if (result.completed === 0 || result.failed > result.completed / 10) {
    throw new Error(
      `${label}: ${result.completed} completed, ${result.failed} failed: ${result.errors.join(' | ')}`,
    );
  }
}

export interface MeasuredRun extends LoadResult {
  /** CPU time the system's processes used per completed iteration (ms). */
  cpuMsPerIteration: number;
}

/** The figures of a measured run that the report reads. */
export function systemRun(run: MeasuredRun): SystemRun {
  const latency: SystemRun['latency'] = { iteration: summarize(run.iterations) };
  for (const [step, samples] of run.steps.samples) latency[step] = summarize(samples);
  return {
    perSecond: run.perSecond,
    cpuMsPerIteration: run.cpuMsPerIteration,
    completed: run.completed,
    failed: run.failed,
    latency,
  };
}

/** A load run that also reads how much CPU the system under test spent on it. */
export async function measuredRun(
  system: RunningSystem,
  options: LoadOptions,
  iteration: Iteration,
): Promise<MeasuredRun> {
  const before = system.process.cpuMs();
  const result = await runLoad(options, iteration);
  const cpu = system.process.cpuMs() - before;
  return { ...result, cpuMsPerIteration: result.completed ? cpu / result.completed : Number.NaN };
}

export interface SideBySideOptions<K extends string> {
  /** Prefix of log lines and error messages, e.g. `scenario 1`. */
  label: string;
  /** What one iteration is, for the log, e.g. `lifecycles`. */
  unit: string;
  systems: Record<K, RunningSystem>;
  /** Order the systems take turns in; the key `peer` gets the peer's (smaller) count. */
  keys: readonly K[];
  counts: Record<LoadModeKey, { project: number; peer: number }>;
  warmup: number;
  maxRunMs: number;
  /** The iteration of one system; `tag` keeps every run's inputs unique. */
  iteration: (key: K, tag: string) => Iteration;
  tag: string;
  log: (line: string) => void;
}

/**
 * Warms every system up, then measures each at every concurrency of LOAD_MODES. Systems take turns at each
 * concurrency, so a burst of noise on the shared machine hits one row, not one column.
 */
export async function measureSideBySide<K extends string>(
  options: SideBySideOptions<K>,
): Promise<Record<LoadModeKey, Record<K, SystemRun>>> {
  for (const key of options.keys) {
    await warmUp(options.iteration(key, `${options.tag}-warm-${key}`), options.warmup);
  }
  const results = {} as Record<LoadModeKey, Record<K, SystemRun>>;
  for (const mode of LOAD_MODES) {
    const runs = {} as Record<K, SystemRun>;
    for (const key of options.keys) {
      const counts = options.counts[mode.key];
      const total = key === 'peer' ? counts.peer : counts.project;
      options.log(`${options.label}: ${key}, ${mode.label}, ${total} ${options.unit}`);
      const result = await measuredRun(
        options.systems[key],
        { total, concurrency: mode.concurrency, maxMs: options.maxRunMs },
        options.iteration(key, `${options.tag}-${mode.key}-${key}`),
      );
      assertMostlySucceeded(`${options.label} ${key} ${mode.label}`, result);
      runs[key] = systemRun(result);
    }
    results[mode.key] = runs;
  }
  return results;
}
