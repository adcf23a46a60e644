import { LlmAgent, type BaseLlm } from '@google/adk';
import { checkServiceStatusTool } from '../tools/check-service-status.js';

export const TECHNICAL_AGENT = 'technical';

const instruction = `You answer technical questions: outages, errors, and whether a service is up
or down. Call check_service_status with the service the customer asks about, then answer in one
or two sentences with its status and message. If the service is unknown, list the known ones.`;

/** Technical specialist; like every specialist it cannot transfer, so each message starts at the coordinator. */
export function createTechnicalAgent(model: BaseLlm): LlmAgent {
  return new LlmAgent({
    name: TECHNICAL_AGENT,
    description:
      'Handles technical problems: outages, errors, and whether a service or the API is down.',
    instruction,
    model,
    tools: [checkServiceStatusTool],
    disallowTransferToParent: true,
    disallowTransferToPeers: true,
  });
}
