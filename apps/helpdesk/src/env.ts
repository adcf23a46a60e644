import { z } from 'zod';
import { intFromEnv, loadGeminiSettings, parseEnv, type GeminiSettings } from '@repo/llm-config';

type Env = Record<string, string | undefined>;

const serviceEnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3002),
  /** All interfaces by default, as a container needs; tests bind 127.0.0.1. */
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  API_TOKEN: z.string().min(1).optional(),
  /** Sessions idle for longer than this are forgotten. */
  SESSION_TTL_SECONDS: intFromEnv(3600),
  /** Most sessions kept in memory; the least recently used go first. */
  MAX_SESSIONS: intFromEnv(10_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type ServiceEnv = z.infer<typeof serviceEnvSchema> & { gemini: GeminiSettings };

/** The whole configuration of the service. Throws ConfigError naming the first bad variable. */
export function loadServiceEnv(env: Env = process.env): ServiceEnv {
  return { ...parseEnv(serviceEnvSchema, env), gemini: loadGeminiSettings(env) };
}

/** Only the model settings, for agents/agent.ts (the benchmark's `adk api_server` peer). */
export function loadAgentEnv(env: Env = process.env): GeminiSettings {
  return loadGeminiSettings(env);
}
