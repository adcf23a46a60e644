import { authEnvRules, httpServiceEnv } from '@repo/http-kit';
import { databaseEnv } from '@repo/pg-kit';
import type { z } from 'zod';
import {
  intFromEnv,
  loadAgentModelSettings,
  parseEnv,
  type AgentModelSettings,
} from '@repo/llm-config';

type Env = Record<string, string | undefined>;

const serviceEnvSchema = httpServiceEnv(3002)
  .extend({
    /** Sessions idle for longer than this are forgotten. */
    SESSION_TTL_SECONDS: intFromEnv(3600),
    /** Most sessions kept in memory; the least recently used go first (memory mode only). */
    MAX_SESSIONS: intFromEnv(10_000),
    /**
     * With DATABASE_URL, sessions live in PostgreSQL (`sessions=postgres`); otherwise in process
     * memory. PG_POOL_MAX: connections holding session locks, i.e. sessions in a turn at once.
     */
    ...databaseEnv({ poolMax: 20 }),
  })
  .superRefine(authEnvRules);

export type ServiceEnv = z.infer<typeof serviceEnvSchema> & { agentModel: AgentModelSettings };

/** The whole configuration of the service. Throws ConfigError naming the first bad variable. */
export function loadServiceEnv(env: Env = process.env): ServiceEnv {
  return { ...parseEnv(serviceEnvSchema, env), agentModel: loadAgentModelSettings(env) };
}

/** Only the model settings, for agents/agent.ts (the benchmark's `adk api_server` peer). */
export function loadAgentEnv(env: Env = process.env): AgentModelSettings {
  return loadAgentModelSettings(env);
}
