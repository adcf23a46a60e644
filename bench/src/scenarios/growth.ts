import { emailGrowth } from './email-growth.js';
import { helpdeskGrowth } from './helpdesk-growth.js';
import type { GrowthResult } from './results.js';
import type { ScenarioContext } from './scenario-context.js';

/** Scenario 4: costs as the work grows, for both services. */
export async function growthScenario(ctx: ScenarioContext): Promise<GrowthResult> {
  const email = await emailGrowth(ctx);
  const helpdesk = await helpdeskGrowth(ctx);
  return { scenario: 4, email, helpdesk, profileIterations: ctx.config.profileIterations };
}
