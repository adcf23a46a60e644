import { z } from 'zod';
import { countFromEnv, intFromEnv, parseEnv, urlFromEnv } from './parse-env.js';

/** OpenAI's fast, low-cost chat model at the time of writing; override with LLM_A_MODEL. */
export const DEFAULT_OPENAI_MODEL = 'gpt-4.1-mini';

/** The settings email-review hands to the OpenAI SDK, as read from LLM_A_*. */
export interface OpenAiSettings {
  apiKey: string;
  model: string;
  /** Absent (or undefined): the SDK's default endpoint. */
  baseURL?: string | undefined;
  timeoutMs: number;
  maxRetries: number;
}

/** The LLM_A_* variables, read into the settings email-review hands to the OpenAI SDK. */
const openAiSettingsSchema = z
  .object({
    LLM_A_API_KEY: z.string({ message: 'is required' }).trim().min(1, 'is required'),
    LLM_A_MODEL: z.string().trim().min(1).default(DEFAULT_OPENAI_MODEL),
    /** Any OpenAI-compatible Chat Completions endpoint; the SDK's default when absent. */
    LLM_A_BASE_URL: urlFromEnv(),
    LLM_A_TIMEOUT_MS: intFromEnv(30_000),
    LLM_A_MAX_RETRIES: countFromEnv(2),
  })
  .transform((env): OpenAiSettings => ({
    apiKey: env.LLM_A_API_KEY,
    model: env.LLM_A_MODEL,
    baseURL: env.LLM_A_BASE_URL,
    timeoutMs: env.LLM_A_TIMEOUT_MS,
    maxRetries: env.LLM_A_MAX_RETRIES,
  }));

/** Settings of email-review's LLM (OpenAI Chat Completions). Throws ConfigError naming the variable. */
export function loadOpenAiSettings(env: Record<string, string | undefined>): OpenAiSettings {
  return parseEnv(openAiSettingsSchema, env);
}
