import { authEnvRules, httpServiceEnv } from '@repo/http-kit';
import type { z } from 'zod';
import { intFromEnv, loadGeminiSettings, parseEnv, type GeminiSettings } from '@repo/llm-config';

type Env = Record<string, string | undefined>;

const serviceEnvSchema = httpServiceEnv(3002)
  .extend({
    /** Sessions idle for longer than this are forgotten. */
    SESSION_TTL_SECONDS: intFromEnv(3600),
    /** Most sessions kept in memory; the least recently used go first. */
    MAX_SESSIONS: intFromEnv(10_000),
  })
  .superRefine(authEnvRules);

export type ServiceEnv = z.infer<typeof serviceEnvSchema> & { gemini: GeminiSettings };

/** The whole configuration of the service. Throws ConfigError naming the first bad variable. */
export function loadServiceEnv(env: Env = process.env): ServiceEnv {
  return { ...parseEnv(serviceEnvSchema, env), gemini: loadGeminiSettings(env) };
}

/** Only the model settings, for agents/agent.ts (the benchmark's `adk api_server` peer). */
export function loadAgentEnv(env: Env = process.env): GeminiSettings {
  return loadGeminiSettings(env);
}
