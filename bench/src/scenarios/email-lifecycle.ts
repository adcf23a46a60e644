import type { EmailDriver } from '../drivers/email-driver.js';
import { EmailReviewDriver } from '../drivers/email-review-driver.js';
import { LanggraphEmailDriver } from '../drivers/langgraph-email-driver.js';
import { startEmailReview } from '../systems/email-review-service.js';
import { startLanggraphDevServer } from '../systems/langgraph-dev-server.js';
import { LOAD_MODES, type EmailLifecycleResult, type EmailSystem } from './results.js';
import type { ScenarioContext } from './scenario-context.js';
import {
  assertMostlySucceeded,
  emailIteration,
  measuredRun,
  measureSideBySide,
  type MeasuredRun,
} from './workloads.js';

const SYSTEMS = ['memory', 'postgres', 'peer'] as const;

/** Pairs of memory and PostgreSQL runs at concurrency 8 in all (the side-by-side one included). */
const PAIRED_RUNS_AT_8 = 3;

/**
 * Scenario 1: create → get → approve, against the project's service in memory and PostgreSQL mode
 * and against the same compiled graph in the LangGraph dev server.
 */
export async function emailLifecycleScenario(ctx: ScenarioContext): Promise<EmailLifecycleResult> {
  const { config, emulator } = ctx;
  await emulator.setLatency(0);
  const db = await ctx.database('s1');
  const memory = await ctx.shared('email-memory', () =>
    startEmailReview({ emulatorUrl: emulator.url }),
  );
  const postgres = await ctx.start(
    startEmailReview({ emulatorUrl: emulator.url, database: { url: db.url, schema: db.schema } }),
  );
  const peer = await ctx.shared('langgraph', () =>
    startLanggraphDevServer({ emulatorUrl: emulator.url }),
  );
  const systems = { memory, postgres, peer };
  const drivers: Record<EmailSystem, EmailDriver> = {
    memory: new EmailReviewDriver(memory.url, 64),
    postgres: new EmailReviewDriver(postgres.url, 64),
    peer: new LanggraphEmailDriver(peer.url, 64, peer.graphId),
  };
  const tag = `${ctx.runTag}-s1`;
  let runs: EmailLifecycleResult['runs'];
  const repeats: Array<{ memory: MeasuredRun; postgres: MeasuredRun }> = [];
  try {
    runs = await measureSideBySide({
      label: 'scenario 1',
      unit: 'lifecycles',
      systems,
      keys: SYSTEMS,
      counts: config.email,
      warmup: config.warmup,
      maxRunMs: config.maxRunMs,
      iteration: (key, tag) => emailIteration(drivers[key], tag),
      tag,
      log: (line) => ctx.log(line),
    });
    // One run of two rates cannot settle their ratio on a shared 2-core machine: repeat the pair.
    for (let k = 1; k < PAIRED_RUNS_AT_8; k += 1) {
      const pair = async (key: 'memory' | 'postgres') => {
        const total = config.email.concurrent8.project;
        ctx.log(`scenario 1: ${key}, concurrency 8, ${total} lifecycles (repeat ${k})`);
        const run = await measuredRun(
          systems[key],
          { total, concurrency: 8, maxMs: config.maxRunMs },
          emailIteration(drivers[key], `${tag}-repeat${k}-${key}`),
        );
        assertMostlySucceeded(`scenario 1 ${key} concurrency 8 repeat ${k}`, run);
        return run;
      };
      repeats.push({ memory: await pair('memory'), postgres: await pair('postgres') });
    }
  } finally {
    for (const driver of Object.values(drivers)) driver.close();
  }
  // The service's connections report their table statistics when they close.
  await ctx.stop(postgres);
  const activity = await db.activity();
  await ctx.cleanup();

  const postgresRuns = [
    ...LOAD_MODES.map((m) => runs[m.key].postgres),
    ...repeats.map((r) => r.postgres),
  ];
  return {
    scenario: 1,
    runs,
    pairedAt8: [
      { memory: runs.concurrent8.memory.perSecond, postgres: runs.concurrent8.postgres.perSecond },
      ...repeats.map((r) => ({ memory: r.memory.perSecond, postgres: r.postgres.perSecond })),
    ],
    database: {
      ...activity,
      lifecycles: config.warmup + postgresRuns.reduce((sum, r) => sum + r.completed + r.failed, 0),
    },
    warmup: config.warmup,
    maxRunMs: config.maxRunMs,
    profileIterations: config.profileIterations,
    commands: [memory.process.commandLine, postgres.process.commandLine, peer.process.commandLine],
  };
}
