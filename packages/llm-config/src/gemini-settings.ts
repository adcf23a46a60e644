import { z } from 'zod';
import { countFromEnv, intFromEnv, parseEnv, urlFromEnv } from './parse-env.js';

/** Gemini's fast tier; override with AGENT_LLM_MODEL. */
export const DEFAULT_GEMINI_MODEL = 'gemini-2.5-flash';

const geminiEnvSchema = z.object({
  AGENT_LLM_API_KEY: z.string({ message: 'is required' }).trim().min(1, 'is required'),
  AGENT_LLM_MODEL: z.string().trim().min(1).default(DEFAULT_GEMINI_MODEL),
  AGENT_APP_NAME: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, "_" or "-"')
    .default('helpdesk'),
  AGENT_LLM_BASE_URL: urlFromEnv(),
  AGENT_LLM_TIMEOUT_MS: intFromEnv(30_000),
  AGENT_LLM_MAX_RETRIES: countFromEnv(2),
});

export interface GeminiSettings {
  apiKey: string;
  model: string;
  appName: string;
  /** Base URL of the Gemini API (a proxy or the local emulator); Google's endpoint when absent. */
  baseUrl?: string;
  timeoutMs: number;
  maxRetries: number;
}

/** Settings of helpdesk's agents (Gemini through ADK). Throws ConfigError naming the variable. */
export function loadGeminiSettings(env: Record<string, string | undefined>): GeminiSettings {
  const parsed = parseEnv(geminiEnvSchema, env);
  return {
    apiKey: parsed.AGENT_LLM_API_KEY,
    model: parsed.AGENT_LLM_MODEL,
    appName: parsed.AGENT_APP_NAME,
    ...(parsed.AGENT_LLM_BASE_URL ? { baseUrl: parsed.AGENT_LLM_BASE_URL } : {}),
    timeoutMs: parsed.AGENT_LLM_TIMEOUT_MS,
    maxRetries: parsed.AGENT_LLM_MAX_RETRIES,
  };
}
