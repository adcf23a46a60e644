import { LlmAgent, type BaseAgent, type BaseLlm } from '@google/adk';
import type { AgentName } from './agent-names.js';

const instruction = `You are the front desk of a customer help desk. For every customer message,
transfer to the one specialist that fits it best: billing for invoices, charges and payments;
technical for outages, errors and whether a service is down; escalation for complaints, angry
customers and requests for a human. Answer yourself only a bare greeting.`;

/** The root of the tree: it only routes, through ADK's `transfer_to_agent`. */
export function createCoordinator(model: BaseLlm, specialists: BaseAgent[]): LlmAgent {
  return new LlmAgent({
    name: 'coordinator' satisfies AgentName,
    description: 'Routes each customer message to the billing, technical or escalation specialist.',
    instruction,
    model,
    subAgents: specialists,
  });
}
