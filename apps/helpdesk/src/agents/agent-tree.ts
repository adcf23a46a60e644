import { LlmAgent, type BaseLlm } from '@google/adk';
import {
  adkInstruction,
  DEFAULT_PROFILE,
  loadPrompts,
  type SupportPrompts,
} from '@repo/support-profile';
import { createModel, type ModelPatches, type ModelSettings } from '../llm/model.js';
import type { AgentName } from './agent-names.js';
import { createSpecialist, SPECIALISTS, type ToolSettings } from './specialists.js';

/** The instructions of the tree's agents: the support profile's prompts (SUPPORT_PROFILE_FILE, PROMPTS_DIR). */
export type AgentPrompts = Pick<
  SupportPrompts,
  'coordinator' | 'billing' | 'technical' | 'escalation'
>;

interface RootAgentOptions {
  patches?: ModelPatches | undefined;
  /** Wraps the shared model, e.g. to observe each call (src/telemetry). */
  observeModel?: (model: BaseLlm) => BaseLlm;
  /** The deployment's tool rules and data sources (e.g. who may see which invoice); default the tools' own. */
  tools?: ToolSettings;
  prompts?: AgentPrompts | undefined;
}

/**
 * The help desk's agent tree: a coordinator, which only routes (ADK's `transfer_to_agent`), over
 * three specialists, all on one model instance (one HTTP client, one connection pool). Built once
 * per process, never per request. Instructions go as functions: ADK substitutes nothing in them.
 */
export function createRootAgent(settings: ModelSettings, options: RootAgentOptions = {}): LlmAgent {
  const { patches = {}, observeModel = (model) => model, tools = {} } = options;
  // Default: the package's prompts rendered without a profile.
  const prompts = options.prompts ?? loadPrompts(DEFAULT_PROFILE);
  const model = observeModel(createModel(settings, patches));
  return new LlmAgent({
    name: 'coordinator' satisfies AgentName,
    description: 'Routes each customer message to the billing, technical or escalation specialist.',
    instruction: adkInstruction(prompts.coordinator),
    model,
    subAgents: SPECIALISTS.map((specialist) => createSpecialist(specialist, model, prompts, tools)),
  });
}
