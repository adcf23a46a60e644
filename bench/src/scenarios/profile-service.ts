import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmailReviewDriver } from '../drivers/email-review-driver.js';
import { HelpdeskDriver } from '../drivers/helpdesk-driver.js';
import { runLoad } from '../load/run-load.js';
import { summarizeProfileDir, type ProfileSummary } from '../profile/cpu-profile.js';
import { profileKey, type ProfileRequest, type TargetCheck } from '../report/report-model.js';
import { startEmailReview } from '../systems/email-review-service.js';
import { startHelpdesk } from '../systems/helpdesk-service.js';
import type { RunningSystem } from '../systems/system.js';
import type { ScenarioContext } from './scenario-context.js';
import { chatIteration, emailIteration } from './workloads.js';

/**
 * Runs the project's service under `node --cpu-prof`, drives a warm-up and then the workload,
 * stops it (the profile is written when it exits cleanly on SIGTERM) and summarizes where the CPU
 * went after the warm-up.
 */
async function profileService(
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
    ctx.warn(`profiling failed: ${String(err)}`);
    return undefined;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Where the project's service spends its CPU over the request's workload (PostgreSQL: a fresh schema). */
async function profile(
  ctx: ScenarioContext,
  request: ProfileRequest,
): Promise<ProfileSummary | undefined> {
  const { service, mode, iterations, concurrency } = request;
  const db = mode === 'postgres' ? await ctx.database(`s${Date.now() % 100_000}prof`) : undefined;
  const summary = await profileService(
    ctx,
    (nodeFlags) =>
      service === 'email'
        ? startEmailReview({
            emulatorUrl: ctx.emulator.url,
            nodeFlags,
            ...(db ? { database: { url: db.url, schema: db.schema } } : {}),
          })
        : startHelpdesk({ emulatorUrl: ctx.emulator.url, nodeFlags }),
    async (system, warm) => {
      const driver =
        service === 'email'
          ? new EmailReviewDriver(system.url, 16)
          : new HelpdeskDriver(system.url, 16);
      const tag = `${ctx.runTag}-prof-${service}-${mode ?? ''}-${warm ? 'w' : 'm'}`;
      try {
        const total = warm ? Math.max(8, Math.ceil(iterations / 10)) : iterations;
        await runLoad(
          { total, concurrency },
          driver instanceof EmailReviewDriver
            ? emailIteration(driver, tag)
            : chatIteration(driver, tag),
        );
      } finally {
        driver.close();
      }
    },
  );
  await ctx.cleanup();
  return summary;
}

/**
 * Profiles the project's service under the workload of each missed target that asks for it, once
 * per distinct workload, while the run has profiling slots left. Keyed by `profileKey`.
 */
export async function profileMisses(
  ctx: ScenarioContext,
  targets: TargetCheck[],
): Promise<Record<string, ProfileSummary>> {
  const profiles: Record<string, ProfileSummary> = {};
  const tried = new Set<string>();
  for (const { met, profileRequest: request } of targets) {
    if (met || !request) continue;
    const key = profileKey(request);
    if (tried.has(key) || !ctx.takeProfileSlot()) continue;
    tried.add(key);
    ctx.log(`profiling ${request.service}: ${request.workload}`);
    await ctx.emulator.setLatency(request.latencyMs);
    try {
      const summary = await profile(ctx, request);
      if (summary) profiles[key] = summary;
    } finally {
      await ctx.emulator.setLatency(0);
    }
  }
  return profiles;
}
