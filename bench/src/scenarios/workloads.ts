import { chatMessages, type ChatDriver } from '../drivers/chat-driver.js';
import { inboundEmail, type EmailDriver } from '../drivers/email-driver.js';
import { runLoad, type Iteration, type LoadOptions, type LoadResult } from '../load/run-load.js';
import type { RunningSystem } from '../systems/system.js';

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
