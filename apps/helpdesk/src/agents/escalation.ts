import { LlmAgent, type BaseLlm } from '@google/adk';
import { createTicketTool } from '../tools/create-ticket.js';

export const ESCALATION_AGENT = 'escalation';

const instruction = `You take over when a customer is unhappy, complains, or asks for a human or
a manager. Call create_ticket once with a one-sentence summary of the request, then apologise
briefly and give the customer the ticket id the tool returned.`;

/** Escalation specialist: opens a ticket for a human. Cannot transfer (see billing). */
export function createEscalationAgent(model: BaseLlm): LlmAgent {
  return new LlmAgent({
    name: ESCALATION_AGENT,
    description:
      'Takes over complaints and angry customers, and requests for a human, a person or a manager.',
    instruction,
    model,
    tools: [createTicketTool],
    disallowTransferToParent: true,
    disallowTransferToPeers: true,
  });
}
