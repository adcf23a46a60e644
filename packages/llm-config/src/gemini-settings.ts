import { z } from 'zod';
import { countFromEnv, intFromEnv, parseEnv, urlFromEnv } from './parse-env.js';

/** Gemini's fast tier; override with AGENT_LLM_MODEL. */
export const DEFAULT_GEMINI_MODEL = 'gemini-2.5-flash';

/** The settings of helpdesk's agents, as read from AGENT_*. */
export interface GeminiSettings {
  apiKey: string;
  model: string;
  appName: string;
  /** Absent (or undefined): the provider's own endpoint. */
  baseUrl?: string | undefined;
  timeoutMs: number;
  maxRetries: number;
}

/**
 * The AGENT_* variables, read into the settings of helpdesk's agents; `defaultModel` depends on
 * the provider (agent-model-settings.ts).
 */
export const agentLlmSettingsSchema = (defaultModel: string) =>
  z
    .object({
      AGENT_LLM_API_KEY: z.string({ message: 'is required' }).trim().min(1, 'is required'),
      AGENT_LLM_MODEL: z.string().trim().min(1).default(defaultModel),
      AGENT_APP_NAME: z
        .string()
        .trim()
        .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, "_" or "-"')
        .default('helpdesk'),
      /**
       * Gemini: base URL of the Gemini API (a proxy or the emulator), Google's endpoint when absent.
       * OpenAI: the SDK's base URL (`…/v1`), OpenAI's endpoint when absent.
       */
      AGENT_LLM_BASE_URL: urlFromEnv(),
      AGENT_LLM_TIMEOUT_MS: intFromEnv(30_000),
      AGENT_LLM_MAX_RETRIES: countFromEnv(2),
    })
    .transform((env): GeminiSettings => ({
      apiKey: env.AGENT_LLM_API_KEY,
      model: env.AGENT_LLM_MODEL,
      appName: env.AGENT_APP_NAME,
      baseUrl: env.AGENT_LLM_BASE_URL,
      timeoutMs: env.AGENT_LLM_TIMEOUT_MS,
      maxRetries: env.AGENT_LLM_MAX_RETRIES,
    }));

const geminiSettingsSchema = agentLlmSettingsSchema(DEFAULT_GEMINI_MODEL);

/** Settings of helpdesk's agents (Gemini through ADK). Throws ConfigError naming the variable. */
export function loadGeminiSettings(env: Record<string, string | undefined>): GeminiSettings {
  return parseEnv(geminiSettingsSchema, env);
}
