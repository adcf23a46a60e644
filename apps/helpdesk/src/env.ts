import { authEnvRules, httpServiceEnv } from '@repo/http-kit';
import { z } from 'zod';
import { intFromEnv, loadGeminiSettings, parseEnv, type GeminiSettings } from '@repo/llm-config';

type Env = Record<string, string | undefined>;

const serviceEnvSchema = httpServiceEnv(3002)
  .extend({
    /** Sessions idle for longer than this are forgotten. */
    SESSION_TTL_SECONDS: intFromEnv(3600),
    /** Most sessions kept in memory; the least recently used go first (memory mode only). */
    MAX_SESSIONS: intFromEnv(10_000),
    /** When set, sessions live in PostgreSQL (`sessions=postgres`); otherwise in process memory. */
    DATABASE_URL: z
      .string()
      .trim()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// connection URL')
      .optional(),
    /** Schema holding the sessions table; lets several deployments (or test runs) share a database. */
    DATABASE_SCHEMA: z
      .string()
      .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lower-case SQL identifier')
      .default('public'),
    /** Connections holding session locks: sessions in a turn at once on one instance. */
    PG_POOL_MAX: intFromEnv(20),
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
