import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { summarizeProfileDir, type ProfileSummary } from '../profile/cpu-profile.js';
import type { RunningSystem } from '../systems/system.js';
import type { ScenarioContext } from './scenario-context.js';

/**
 * Runs the project's service under `node --cpu-prof`, drives a warm-up and then the workload,
 * stops it (the profile is written when it exits cleanly on SIGTERM) and summarizes where the CPU
 * went after the warm-up.
 */
export async function profileService(
  ctx: ScenarioContext,
  start: (nodeFlags: string[]) => Promise<RunningSystem>,
  drive: (system: RunningSystem, warmUp: boolean) => Promise<void>,
): Promise<ProfileSummary | undefined> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-profile-'));
  try {
    const spawnedAt = performance.now();
    const system = await ctx.start(start(['--cpu-prof', '--cpu-prof-dir', dir]));
    let measuredFrom = 0;
    try {
      await drive(system, true);
      measuredFrom = performance.now() - spawnedAt;
      await drive(system, false);
    } finally {
      await ctx.stop(system);
    }
    // Start-up and warm-up (module loading, JIT) are cut off: the profile shows the steady state.
    return await summarizeProfileDir(dir, { skipMs: measuredFrom });
  } catch (err) {
    ctx.log(`profiling failed: ${String(err)}`);
    return undefined;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
