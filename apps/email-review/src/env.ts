import { authEnvRules, httpServiceEnv } from '@repo/http-kit';
import { databaseEnv } from '@repo/pg-kit';
import type { z } from 'zod';
import { loadOpenAiSettings, parseEnv, type OpenAiSettings } from '@repo/llm-config';

type Env = Record<string, string | undefined>;

/** http-kit's PORT, HOST, API_TOKEN and LOG_LEVEL, and the database settings. */
const serviceEnvSchema = httpServiceEnv(3001)
  .extend({
    /**
     * With DATABASE_URL, the checkpoints and the thread index live in PostgreSQL (in
     * DATABASE_SCHEMA); PG_POOL_MAX: connections for queries, and as many for the thread locks.
     */
    ...databaseEnv({ poolMax: 10 }),
  })
  .superRefine(authEnvRules);

export type ServiceEnv = z.infer<typeof serviceEnvSchema> & { openai: OpenAiSettings };

/** The whole configuration of the service. Throws ConfigError naming the first bad variable. */
export function loadServiceEnv(env: Env = process.env): ServiceEnv {
  return { ...parseEnv(serviceEnvSchema, env), openai: loadOpenAiSettings(env) };
}

/**
 * Only the model settings: what the graph needs when LangGraph's own server hosts it. Kept (not
 * inlined) so that this file stays the only reader of `process.env`.
 */
export function loadWorkflowEnv(env: Env = process.env): OpenAiSettings {
  return loadOpenAiSettings(env);
}
