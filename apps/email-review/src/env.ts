import { authEnvRules, httpServiceEnv } from '@repo/http-kit';
import { z } from 'zod';
import { intFromEnv, loadOpenAiSettings, parseEnv, type OpenAiSettings } from '@repo/llm-config';

type Env = Record<string, string | undefined>;

/** http-kit's PORT, HOST, API_TOKEN and LOG_LEVEL, and the database settings. */
const serviceEnvSchema = httpServiceEnv(3001)
  .extend({
    DATABASE_URL: z
      .string()
      .trim()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// connection URL')
      .optional(),
    /** Schema holding the checkpoint tables and the thread index; lets several deployments (or test runs) share a database. */
    DATABASE_SCHEMA: z
      .string()
      .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lower-case SQL identifier')
      .default('public'),
    PG_POOL_MAX: intFromEnv(10),
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
