import type { LlmAgent } from '@google/adk';
import { createBillingAgent } from './billing.js';
import { createCoordinator } from './coordinator.js';
import { createEscalationAgent } from './escalation.js';
import { HelpdeskGemini, type ModelSettings } from './model.js';
import { createTechnicalAgent } from './technical.js';

export const SPECIALIST_AGENTS = ['billing', 'technical', 'escalation'] as const;

/**
 * The help desk's agent tree: a coordinator over three specialists, all on one Gemini instance
 * (one HTTP client, one connection pool). Built once per process, never per request.
 */
export function createRootAgent(settings: ModelSettings): LlmAgent {
  const model = new HelpdeskGemini(settings);
  return createCoordinator(model, [
    createBillingAgent(model),
    createTechnicalAgent(model),
    createEscalationAgent(model),
  ]);
}
