import { z } from 'zod';
import { countFromEnv, intFromEnv, parseEnv, urlFromEnv } from './parse-env.js';

/** OpenAI's fast, low-cost chat model at the time of writing; override with LLM_A_MODEL. */
export const DEFAULT_OPENAI_MODEL = 'gpt-4.1-mini';

const openAiEnvSchema = z.object({
  LLM_A_API_KEY: z.string({ message: 'is required' }).trim().min(1, 'is required'),
  LLM_A_MODEL: z.string().trim().min(1).default(DEFAULT_OPENAI_MODEL),
  LLM_A_BASE_URL: urlFromEnv(),
  LLM_A_TIMEOUT_MS: intFromEnv(30_000),
  LLM_A_MAX_RETRIES: countFromEnv(2),
});

export interface OpenAiSettings {
  apiKey: string;
  model: string;
  /** Any OpenAI-compatible Chat Completions endpoint; the SDK's default when absent. */
  baseURL?: string;
  timeoutMs: number;
  maxRetries: number;
}

/** Settings of email-review's LLM (OpenAI Chat Completions). Throws ConfigError naming the variable. */
export function loadOpenAiSettings(env: Record<string, string | undefined>): OpenAiSettings {
  const parsed = parseEnv(openAiEnvSchema, env);
  return {
    apiKey: parsed.LLM_A_API_KEY,
    model: parsed.LLM_A_MODEL,
    ...(parsed.LLM_A_BASE_URL ? { baseURL: parsed.LLM_A_BASE_URL } : {}),
    timeoutMs: parsed.LLM_A_TIMEOUT_MS,
    maxRetries: parsed.LLM_A_MAX_RETRIES,
  };
}
