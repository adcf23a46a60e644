import { openPostgresPersistence } from 'email-review';
import { pino } from 'pino';
import { InProcessEmailDriver } from '../drivers/in-process-email-driver.js';
import { runLoad } from '../load/run-load.js';
import type { FrameworkPatchesResult, PatchMeasure } from './results.js';
import type { ScenarioContext } from './scenario-context.js';
import { assertMostlySucceeded, emailIteration, warmUp } from './workloads.js';

type PersistencePatches = { oneRowCheckpoints?: boolean };

/** Each variant switches one patch off; `null` is the service as shipped (every patch on). */
const EMAIL_VARIANTS: Array<{ patch: string | null; options: PersistencePatches }> = [
  { patch: null, options: {} },
  {
    patch: 'langgraph-checkpoint-postgres-one-row-checkpoints',
    options: { oneRowCheckpoints: false },
  },
];

/**
 * Scenario 5: what each framework patch that exists for speed buys, measured in the bench's own
 * process with the provider answering at once (so only the framework's own work is timed):
 * email-review's graph on its PostgreSQL checkpointer, lifecycles/s at concurrency 8, each patch
 * switched off in turn. (The helpdesk's patches are for function, not speed; its tool declarations
 * are built once by a FunctionTool subclass, ADK's own extension point, not a patch.) Variants take turns
 * round by round, so drift in the machine's load falls on all of them alike; the report compares
 * medians.
 */
export async function frameworkPatchesScenario(
  ctx: ScenarioContext,
): Promise<FrameworkPatchesResult> {
  const { rounds, emailLifecycles, concurrency } = ctx.config.patches;
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

  const emailRounds: number[][] = email.map(() => []);
  try {
    for (const system of email) await warmUp(system.iteration, ctx.config.warmup);
    for (let round = 0; round < rounds; round++) {
      ctx.log(`scenario 5: round ${round + 1} of ${rounds}`);
      for (const [i, system] of email.entries()) {
        const run = await runLoad({ total: emailLifecycles, concurrency }, system.iteration);
        assertMostlySucceeded(`patches email ${system.variant.patch ?? 'all on'}`, run);
        emailRounds[i]!.push(run.perSecond);
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
  };
}
