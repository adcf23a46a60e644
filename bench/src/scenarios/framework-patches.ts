import { openPostgresPersistence } from 'email-review';
import type { AgentTreePatches } from 'helpdesk';
import { pino } from 'pino';
import { InProcessAdkDriver } from '../drivers/in-process-adk-driver.js';
import { InProcessEmailDriver } from '../drivers/in-process-email-driver.js';
import { runLoad } from '../load/run-load.js';
import { mean } from '../stats/percentiles.js';
import type { FrameworkPatchesResult, PatchMeasure } from './results.js';
import type { ScenarioContext } from './scenario-context.js';
import { assertMostlySucceeded, chatIteration, emailIteration, warmUp } from './workloads.js';

type PersistencePatches = { namedStatements?: boolean; oneStatementCheckpointWrites?: boolean };

/** Each variant switches one patch off; `null` is the service as shipped (every patch on). */
const EMAIL_VARIANTS: Array<{ patch: string | null; options: PersistencePatches }> = [
  { patch: null, options: {} },
  { patch: 'pg-named-statements', options: { namedStatements: false } },
  {
    patch: 'langgraph-checkpoint-postgres-one-statement-writes',
    options: { oneStatementCheckpointWrites: false },
  },
];

const HELPDESK_VARIANTS: Array<{ patch: string | null; options: AgentTreePatches }> = [
  { patch: null, options: {} },
  { patch: 'declareToolsOnce', options: { declareToolsOnce: false } },
];

/**
 * Scenario 5: what each framework patch that exists for speed buys, measured in the bench's own
 * process with the provider answering at once (so only the framework's own work is timed).
 * email-review: its graph on its PostgreSQL checkpointer, lifecycles/s at concurrency 8, each
 * patch switched off in turn. helpdesk: the agent tree on ADK's Runner, mean ms per message, with
 * the tool-declaration patch off. Variants take turns round by round, so drift in the machine's
 * load falls on all of them alike; the report compares medians.
 */
export async function frameworkPatchesScenario(
  ctx: ScenarioContext,
): Promise<FrameworkPatchesResult> {
  const { rounds, emailLifecycles, concurrency, chats } = ctx.config.patches;
  await ctx.emulator.setLatency(0);
  const logger = pino({ level: 'silent' });

  const email = await Promise.all(
    EMAIL_VARIANTS.map(async (variant, i) => {
      const db = await ctx.database(`patches_${i}`);
      const persistence = await openPostgresPersistence({
        connectionString: db.url,
        schema: db.schema,
        poolMax: 10,
        logger,
        ...variant.options,
      });
      const driver = new InProcessEmailDriver(ctx.emulator.openAiBaseUrl, persistence.checkpointer);
      return { variant, persistence, iteration: emailIteration(driver, `${ctx.runTag}-p${i}`) };
    }),
  );
  const helpdesk = HELPDESK_VARIANTS.map((variant, i) => ({
    variant,
    iteration: chatIteration(
      new InProcessAdkDriver(ctx.emulator.url, variant.options),
      `${ctx.runTag}-h${i}`,
    ),
  }));

  const emailRounds: number[][] = email.map(() => []);
  const helpdeskRounds: number[][] = helpdesk.map(() => []);
  try {
    for (const system of [...email, ...helpdesk]) await warmUp(system.iteration, ctx.config.warmup);
    for (let round = 0; round < rounds; round++) {
      ctx.log(`scenario 5: round ${round + 1} of ${rounds}`);
      for (const [i, system] of email.entries()) {
        const run = await runLoad({ total: emailLifecycles, concurrency }, system.iteration);
        assertMostlySucceeded(`patches email ${system.variant.patch ?? 'all on'}`, run);
        emailRounds[i]!.push(run.perSecond);
      }
      for (const [i, system] of helpdesk.entries()) {
        const run = await runLoad({ total: chats, concurrency: 1 }, system.iteration);
        assertMostlySucceeded(`patches helpdesk ${system.variant.patch ?? 'all on'}`, run);
        helpdeskRounds[i]!.push(mean(run.steps.of('message')));
      }
    }
  } finally {
    await Promise.all(email.map((system) => system.persistence.close()));
  }
  const measures = (variants: Array<{ variant: { patch: string | null } }>, values: number[][]) =>
    variants.map(({ variant }, i): PatchMeasure => ({ patch: variant.patch, rounds: values[i]! }));
  return {
    scenario: 5,
    email: { concurrency, lifecycles: emailLifecycles, runs: measures(email, emailRounds) },
    helpdesk: { chats, runs: measures(helpdesk, helpdeskRounds) },
  };
}
