import { LlmAgent, type BaseAgent, type BaseLlm } from '@google/adk';
import { adkInstruction } from '@repo/support-profile';
import type { AgentName } from './agent-names.js';

/**
 * The root of the tree: it only routes, through ADK's `transfer_to_agent`. Its instruction is the
 * support profile's coordinator prompt (as a function: ADK substitutes nothing in it).
 */
export function createCoordinator(
  model: BaseLlm,
  specialists: BaseAgent[],
  instruction: string,
): LlmAgent {
  return new LlmAgent({
    name: 'coordinator' satisfies AgentName,
    description: 'Routes each customer message to the billing, technical or escalation specialist.',
    instruction: adkInstruction(instruction),
    model,
    subAgents: specialists,
  });
}
