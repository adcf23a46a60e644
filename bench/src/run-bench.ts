import { mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import type { BenchConfig } from './config.js';
import { BenchDatabase } from './db/bench-database.js';
import { EmulatorProcess } from './emulator/emulator-process.js';
import { machineFacts } from './machine-facts.js';
import { judgeTargets, renderReport } from './report/render-report.js';
import type { BenchReport, ScenarioOutcome, Section } from './report/report-model.js';
import { a2aChatScenario } from './scenarios/a2a-chat.js';
import { emailLifecycleScenario } from './scenarios/email-lifecycle.js';
import { frameworkPatchesScenario } from './scenarios/framework-patches.js';
import { growthScenario } from './scenarios/growth.js';
import { helpdeskChatScenario } from './scenarios/helpdesk-chat.js';
import { helpdeskSessionsScenario } from './scenarios/helpdesk-sessions.js';
import { profileMisses } from './scenarios/profile-service.js';
import { providerOverheadScenario } from './scenarios/provider-overhead.js';
import { streamingScenario } from './scenarios/streaming.js';
import { observabilityScenario } from './scenarios/observability.js';
import { webhooksScenario } from './scenarios/webhooks.js';
import { helpCenterScenario } from './scenarios/help-center.js';
import { guidelinesScenario } from './scenarios/guidelines.js';
import type { ScenarioResult } from './scenarios/results.js';
import { ScenarioContext } from './scenarios/scenario-context.js';
import { SystemPool } from './scenarios/system-pool.js';

const SCENARIOS: Record<
  number,
  { title: string; run: (ctx: ScenarioContext) => Promise<ScenarioResult> }
> = {
  1: { title: 'Email lifecycle', run: emailLifecycleScenario },
  2: { title: 'Helpdesk chat', run: helpdeskChatScenario },
  3: { title: 'Overhead with a realistic provider', run: providerOverheadScenario },
  4: { title: 'Growth', run: growthScenario },
  5: { title: 'Framework patches', run: frameworkPatchesScenario },
  6: { title: 'Helpdesk sessions in PostgreSQL', run: helpdeskSessionsScenario },
  7: { title: 'Streaming', run: streamingScenario },
  8: { title: 'Metrics and tracing', run: observabilityScenario },
  9: { title: 'Helpdesk over A2A', run: a2aChatScenario },
  10: { title: 'Webhooks', run: webhooksScenario },
  11: { title: 'Help center at 10,000 articles', run: helpCenterScenario },
  12: { title: 'Learned guidelines at 5,000', run: guidelinesScenario },
};

export interface BenchOutcome {
  /** What was measured. */
  report: BenchReport;
  /** How the report lays it out. */
  sections: Section[];
  markdown: string;
  /** The throughput chart written beside the markdown, when scenario 1 or 2 ran. */
  chartFile?: string;
  /** Scenarios that threw (their section says why). */
  failed: number[];
  /** In the name of every schema and database the run made (`bench_<tag>_…`), all dropped by its end. */
  runTag: string;
}

/** The chart's file beside the report: `latest.md` → `latest-throughput.svg`. */
export function chartFileFor(outFile: string): string {
  return join(dirname(outFile), `${basename(outFile, extname(outFile))}-throughput.svg`);
}

/**
 * Runs the selected scenarios one after another, profiles the project's service for missed targets,
 * and writes the markdown report to `config.outFile` and its chart beside it.
 */
export async function runBench(config: BenchConfig, command: string): Promise<BenchOutcome> {
  const startedAt = new Date();
  const machine = machineFacts();
  if (!(await BenchDatabase.reachable(config.databaseUrl))) {
    throw new Error(
      `PostgreSQL is not reachable at ${config.databaseUrl.replace(/:[^:@/]*@/, ':***@')} (set BENCH_DATABASE_URL)`,
    );
  }
  const runTag = `r${Date.now().toString(36)}`;
  const emulator = await EmulatorProcess.start(0);
  const run = { pool: new SystemPool(config.reuseSystems), profilesLeft: config.maxProfiles };
  const scenarios: ScenarioOutcome[] = [];
  const failed: number[] = [];
  try {
    for (const id of config.only) {
      const scenario = SCENARIOS[id];
      if (!scenario) continue;
      const ctx = new ScenarioContext(config, emulator, runTag, run);
      ctx.log(`scenario ${id}: ${scenario.title}`);
      try {
        const result = await scenario.run(ctx);
        const profiles = await profileMisses(ctx, judgeTargets(result));
        scenarios.push({ id, result, profiles });
      } catch (err) {
        failed.push(id);
        ctx.warn(`scenario ${id} failed: ${(err as Error).stack ?? String(err)}`);
        scenarios.push({ id, title: scenario.title, error: (err as Error).message });
      } finally {
        await ctx.cleanup();
      }
    }
  } finally {
    await run.pool.closeAll();
    await emulator.stop();
  }
  const report: BenchReport = {
    startedAt: startedAt.toISOString(),
    durationMs: Date.now() - startedAt.getTime(),
    command,
    scale: config.scale,
    machine,
    scenarios,
  };
  const chartFile = chartFileFor(config.outFile);
  const rendered = renderReport(report, basename(chartFile));
  await mkdir(dirname(config.outFile), { recursive: true });
  await writeFile(config.outFile, rendered.markdown);
  if (rendered.chartSvg) await writeFile(chartFile, rendered.chartSvg);
  return {
    report,
    sections: rendered.sections,
    markdown: rendered.markdown,
    ...(rendered.chartSvg ? { chartFile } : {}),
    failed,
    runTag,
  };
}
