import { z } from 'zod';
import {
  agentLlmSettingsSchema,
  DEFAULT_GEMINI_MODEL,
  type GeminiSettings,
} from './gemini-settings.js';
import { DEFAULT_OPENAI_MODEL } from './openai-settings.js';
import { parseEnv } from './parse-env.js';

/** Where helpdesk's agents run: Gemini's API, or any OpenAI Chat Completions–compatible endpoint. */
export const AGENT_LLM_PROVIDERS = ['gemini', 'openai'] as const;
export type AgentLlmProvider = (typeof AGENT_LLM_PROVIDERS)[number];

/** The same AGENT_LLM_* variables whichever the provider; only the model's default differs. */
export type AgentModelSettings = GeminiSettings & { provider: AgentLlmProvider };

const providerSchema = z.object({
  AGENT_LLM_PROVIDER: z.enum(AGENT_LLM_PROVIDERS).default('gemini'),
});

const DEFAULT_MODEL: Record<AgentLlmProvider, string> = {
  gemini: DEFAULT_GEMINI_MODEL,
  openai: DEFAULT_OPENAI_MODEL,
};

/**
 * Settings of helpdesk's agents: `AGENT_LLM_PROVIDER` (gemini, the default, or openai) and the
 * AGENT_LLM_* variables. Throws ConfigError naming the variable.
 */
export function loadAgentModelSettings(
  env: Record<string, string | undefined>,
): AgentModelSettings {
  const provider = parseEnv(providerSchema, env).AGENT_LLM_PROVIDER;
  return { provider, ...parseEnv(agentLlmSettingsSchema(DEFAULT_MODEL[provider]), env) };
}
