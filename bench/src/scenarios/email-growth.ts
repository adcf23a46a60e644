import { EmailReviewDriver } from '../drivers/email-review-driver.js';
import { LanggraphEmailDriver } from '../drivers/langgraph-email-driver.js';
import { runLoad } from '../load/run-load.js';
import type { Table, TargetCheck } from '../report/report-model.js';
import { startEmailReview } from '../systems/email-review-service.js';
import { startLanggraphDevServer } from '../systems/langgraph-dev-server.js';
import { profileEmail } from './email-lifecycle.js';
import type { ScenarioContext } from './scenario-context.js';
import { assertMostlySucceeded, emailIteration, ratio, warmUp } from './workloads.js';

export interface GrowthPart {
  tables: Table[];
  notes: string[];
  targets: TargetCheck[];
  commands: string[];
}

/**
 * Email-review with PostgreSQL: what one completed thread leaves in the database, and whether the
 * lifecycle rate holds as completed threads pile up (1k vs 20k by default).
 */
export async function emailGrowth(ctx: ScenarioContext): Promise<GrowthPart> {
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
  const notes: string[] = [];
  let rate1 = 0;
  let rate2 = 0;
  let storage = { rows: 0, bytes: 0, threads: 0, tables: {} as Record<string, number> };
  try {
    await warmUp(emailIteration(driver, `${tag}-warm`), config.warmup);
    // Storage per thread, from an otherwise empty schema: every thread in it completed.
    const seeded = await runLoad(
      { total: small, concurrency: config.growth.seedConcurrency },
      emailIteration(driver, `${tag}-seed`),
    );
    assertMostlySucceeded('scenario 4 seeding', seeded);
    const totals = await db.totals();
    const threads = await db.threadCount();
    storage = { ...totals, threads };
    const seedRate = seeded.perSecond;
    notes.push(
      `Seeding the first ${threads} threads through the API (create → get → approve at concurrency ${config.growth.seedConcurrency}) ran at ${seedRate.toFixed(1)} lifecycles/s (${(seeded.wallMs / 1000).toFixed(1)} s).`,
    );

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
      notes.push(
        `The remaining ${missing} threads were seeded through the API too (${((performance.now() - started) / 1000).toFixed(1)} s).`,
      );
    } else if (missing > 0) {
      const template = await db.completedThreadId();
      const started = performance.now();
      await db.cloneThread(template, missing);
      notes.push(
        `The remaining ${missing} threads were seeded in SQL, cloning every row of one completed thread under fresh ids (${((performance.now() - started) / 1000).toFixed(1)} s): through the API they would have taken about ${(apiEstimateMs / 60_000).toFixed(1)} min.`,
      );
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

  const growthRatio = ratio(rate2, rate1);
  const target: TargetCheck = {
    target: `lifecycles/s at ${large} existing threads within 10 % of that at ${small}`,
    measured: `${(100 * growthRatio).toFixed(1)} % (${rate2.toFixed(1)} vs ${rate1.toFixed(1)} lifecycles/s)`,
    met: growthRatio >= 0.9,
    ...(growthRatio >= 0.9
      ? {}
      : { shortfall: `${(90 - 100 * growthRatio).toFixed(1)} percentage points` }),
  };
  if (!target.met && ctx.takeProfileSlot()) {
    target.profileWorkload = `${config.profileIterations} lifecycles at concurrency 8 on a fresh schema (PostgreSQL)`;
    target.profile = await profileEmail(ctx, 'postgres');
  }
  const perTable = Object.entries(storage.tables)
    .map(([name, rows]) => `${name} ${(rows / Math.max(storage.threads, 1)).toFixed(1)}`)
    .join(', ');
  return {
    commands,
    targets: [target],
    notes: [
      ...notes,
      `Before each measurement the schema's tables were VACUUM ANALYZEd, as autovacuum would have left them in a deployment that grew over time. Rows per completed thread by table: ${perTable}. Bytes are pg_total_relation_size (heap, TOAST, indexes) of the schema's tables over the thread count.`,
      'The LangGraph dev server has no PostgreSQL mode; its bytes per thread are the size of its .langgraph_api/ store files after its flush. Its lifecycle rate at 1k/20k existing threads is not measured: seeding them through its API at its few lifecycles per second would take longer than the whole benchmark.',
    ],
    tables: [
      {
        title:
          'email-review with PostgreSQL: storage per completed thread and throughput as threads pile up',
        columns: ['', 'project (PostgreSQL)', 'LangGraph dev server', 'peer ÷ project (×)'],
        rows: [
          ['rows per completed thread', storage.rows / Math.max(storage.threads, 1), 'n/a', 'n/a'],
          [
            'bytes per completed thread',
            storage.bytes / Math.max(storage.threads, 1),
            peerBytes,
            ratio(peerBytes, storage.bytes / Math.max(storage.threads, 1)),
          ],
          [`lifecycles/s at concurrency 8, ${small} existing threads`, rate1, 'n/a', 'n/a'],
          [`lifecycles/s at concurrency 8, ${large} existing threads`, rate2, 'n/a', 'n/a'],
          [`${large} ÷ ${small} (%)`, 100 * growthRatio, 'n/a', 'n/a'],
        ],
      },
    ],
  };
}
