import { EmailReviewDriver } from '../drivers/email-review-driver.js';
import { LanggraphEmailDriver } from '../drivers/langgraph-email-driver.js';
import { runLoad } from '../load/run-load.js';
import { startEmailReview } from '../systems/email-review-service.js';
import { startLanggraphDevServer } from '../systems/langgraph-dev-server.js';
import type { EmailGrowthResult } from './results.js';
import type { ScenarioContext } from './scenario-context.js';
import { assertMostlySucceeded, emailIteration, warmUp } from './workloads.js';

/**
 * Email-review with PostgreSQL: what one completed thread leaves in the database, and whether the
 * lifecycle rate holds as completed threads pile up (1k vs 20k by default).
 */
export async function emailGrowth(ctx: ScenarioContext): Promise<EmailGrowthResult> {
  const { config, emulator } = ctx;
  const [small, large] = config.growth.emailThreads;
  const measure = config.growth.emailMeasure;
  const tag = `${ctx.runTag}-s4e`;
  await emulator.setLatency(0);
  const db = await ctx.database('s4');
  const service = await ctx.start(
    startEmailReview({ emulatorUrl: emulator.url, database: { url: db.url, schema: db.schema } }),
  );
  const driver = new EmailReviewDriver(service.url, 64);
  let seeded: EmailGrowthResult['seeded'] = { threads: 0, perSecond: Number.NaN, seconds: 0 };
  let rest: EmailGrowthResult['rest'];
  let rate1 = 0;
  let rate2 = 0;
  let storage = { rows: 0, bytes: 0, threads: 0, tables: {} as Record<string, number> };
  try {
    await warmUp(emailIteration(driver, `${tag}-warm`), config.warmup);
    // Storage per thread, from an otherwise empty schema: every thread in it completed.
    const seeding = await runLoad(
      { total: small, concurrency: config.growth.seedConcurrency },
      emailIteration(driver, `${tag}-seed`),
    );
    assertMostlySucceeded('scenario 4 seeding', seeding);
    const totals = await db.totals();
    const threads = await db.threadCount();
    storage = { ...totals, threads };
    const seedRate = seeding.perSecond;
    seeded = { threads, perSecond: seedRate, seconds: seeding.wallMs / 1000 };

    await db.vacuumAnalyze();
    ctx.log(`scenario 4: email lifecycles at ${threads} existing threads`);
    const at1 = await runLoad(
      { total: measure, concurrency: 8, maxMs: config.maxRunMs * 2 },
      emailIteration(driver, `${tag}-m1`),
    );
    assertMostlySucceeded('scenario 4 at small', at1);
    rate1 = at1.perSecond;

    const missing = large - (await db.threadCount());
    const apiEstimateMs = (1000 * missing) / Math.max(seedRate, 0.001);
    if (missing > 0 && apiEstimateMs <= config.growth.seedApiBudgetMs) {
      const started = performance.now();
      const more = await runLoad(
        { total: missing, concurrency: config.growth.seedConcurrency },
        emailIteration(driver, `${tag}-seed2`),
      );
      assertMostlySucceeded('scenario 4 seeding', more);
      rest = {
        via: 'api',
        threads: missing,
        seconds: (performance.now() - started) / 1000,
        apiEstimateMinutes: apiEstimateMs / 60_000,
      };
    } else if (missing > 0) {
      const template = await db.completedThreadId();
      const started = performance.now();
      await db.cloneThread(template, missing);
      rest = {
        via: 'sql',
        threads: missing,
        seconds: (performance.now() - started) / 1000,
        apiEstimateMinutes: apiEstimateMs / 60_000,
      };
    }
    await db.vacuumAnalyze();
    const existing = await db.threadCount();
    ctx.log(`scenario 4: email lifecycles at ${existing} existing threads`);
    const at2 = await runLoad(
      { total: measure, concurrency: 8, maxMs: config.maxRunMs * 2 },
      emailIteration(driver, `${tag}-m2`),
    );
    assertMostlySucceeded('scenario 4 at large', at2);
    rate2 = at2.perSecond;
  } finally {
    driver.close();
  }
  await ctx.cleanup();

  // The peer keeps threads in memory and flushes them to files; its bytes per thread are on disk too.
  const peer = await ctx.start(startLanggraphDevServer({ emulatorUrl: emulator.url }));
  const peerDriver = new LanggraphEmailDriver(peer.url, 16, peer.graphId);
  let peerBytes = Number.NaN;
  try {
    const peerCount = Math.min(measure, 48);
    const run = await runLoad(
      { total: peerCount, concurrency: 8, maxMs: config.maxRunMs * 2 },
      emailIteration(peerDriver, `${tag}-peer`),
    );
    assertMostlySucceeded('scenario 4 peer', run);
    peerBytes = (await peer.storeBytes()) / run.completed;
  } finally {
    peerDriver.close();
  }
  const commands = [service.process.commandLine, peer.process.commandLine];
  await ctx.cleanup();

  return {
    threads: [small, large],
    seedConcurrency: config.growth.seedConcurrency,
    seeded,
    ...(rest ? { rest } : {}),
    storage,
    peerBytesPerThread: peerBytes,
    perSecond: [rate1, rate2],
    commands,
  };
}
