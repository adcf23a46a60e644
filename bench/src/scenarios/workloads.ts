import { chatMessages, type ChatDriver } from '../drivers/chat-driver.js';
import { inboundEmail, type EmailDriver } from '../drivers/email-driver.js';
import { runLoad, type Iteration, type LoadOptions, type LoadResult } from '../load/run-load.js';
import type { RunningSystem } from '../systems/system.js';

/** The concurrencies scenarios 1 and 2 measure every system at. */
export const LOAD_MODES = [
  { key: 'sequential', label: 'sequential', concurrency: 1 },
  { key: 'concurrent8', label: 'concurrency 8', concurrency: 8 },
  { key: 'concurrent32', label: 'concurrency 32', concurrency: 32 },
] as const;
export type LoadModeKey = (typeof LOAD_MODES)[number]['key'];

/** One lifecycle per iteration; `tag` makes every inbound text unique. */
export function emailIteration(driver: EmailDriver, tag: string): Iteration {
  return (i, timer) => driver.lifecycle(inboundEmail(i, `${tag}-${i}`), timer);
}

/** One chat (a fresh session and its messages) per iteration. */
export function chatIteration(driver: ChatDriver, tag: string, turns?: number): Iteration {
  return (i, timer) => driver.chat(`${tag}-${i}`, chatMessages(`${tag}-${i}`, turns), timer);
}

/** A few iterations that are not measured, so every system is measured warm (JIT, pools, connections). */
export async function warmUp(iteration: Iteration, count: number): Promise<void> {
  const result = await runLoad({ total: count, concurrency: 1 }, iteration);
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

export function ratio(a: number, b: number): number {
  return b > 0 ? a / b : Number.NaN;
}

export interface MeasuredRun extends LoadResult {
  /** CPU time the system's processes used per completed iteration (ms). */
  cpuMsPerIteration: number;
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
 * Results are keyed `${mode}/${system}`.
 */
export async function measureSideBySide<K extends string>(
  options: SideBySideOptions<K>,
): Promise<Map<string, MeasuredRun>> {
  for (const key of options.keys) {
    await warmUp(options.iteration(key, `${options.tag}-warm-${key}`), options.warmup);
  }
  const results = new Map<string, MeasuredRun>();
  for (const mode of LOAD_MODES) {
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
      results.set(`${mode.key}/${key}`, result);
    }
  }
  return results;
}
