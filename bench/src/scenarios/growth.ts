import type { Section } from '../report/report-model.js';
import { emailGrowth } from './email-growth.js';
import { helpdeskGrowth } from './helpdesk-growth.js';
import type { ScenarioContext } from './scenario-context.js';

/** Scenario 4: costs as the work grows, for both services. */
export async function growthScenario(ctx: ScenarioContext): Promise<Section> {
  const email = await emailGrowth(ctx);
  const helpdesk = await helpdeskGrowth(ctx);
  return {
    id: 4,
    title:
      'Growth: storage and throughput as threads pile up; memory and prompt size as sessions do',
    tables: [...email.tables, ...helpdesk.tables],
    notes: [...email.notes, ...helpdesk.notes],
    targets: [...email.targets, ...helpdesk.targets],
    commands: [...email.commands, ...helpdesk.commands],
  };
}
