import { authEnvRules, httpServiceEnv } from '@repo/http-kit';
import { databaseEnv } from '@repo/pg-kit';
import { knowledgeEnv } from '@repo/knowledge';
import { loadSupportConfig, type SupportPrompts, type SupportProfile } from '@repo/support-profile';
import { webhooksEnv } from '@repo/webhooks';
import type { z } from 'zod';
import { operatorEnv } from './operator/operator-env.js';
import { widgetEnv } from './web/widget-env.js';
import {
  intFromEnv,
  loadAgentModelSettings,
  parseEnv,
  urlFromEnv,
  type AgentModelSettings,
} from '@repo/llm-config';

type Env = Record<string, string | undefined>;

/** A URL the card can append `/a2a` to: no credentials, query or fragment (even empty ones). */
function isBaseUrl(value: string): boolean {
  if (!URL.canParse(value) || /[?#]/.test(value)) return false;
  const url = new URL(value);
  return !url.username && !url.password;
}

const serviceEnvSchema = httpServiceEnv(3002)
  .extend({
    /** Sessions idle for longer than this are forgotten. */
    SESSION_TTL_SECONDS: intFromEnv(3600),
    /** Most sessions kept in memory; the least recently used go first (memory mode only). */
    MAX_SESSIONS: intFromEnv(10_000),
    /**
     * With DATABASE_URL, sessions live in PostgreSQL (`sessions=postgres`); otherwise in process
     * memory. PG_POOL_MAX: connections for queries (a turn holds none while the model runs);
     * PG_CONNECT_TIMEOUT_MS and PG_QUERY_TIMEOUT_MS bound each wait on the database.
     */
    ...databaseEnv({ poolMax: 20, queryTimeoutMs: 10_000 }),
    /**
     * How long a session's lease lasts unless its turn renews it (every third of it): a turn
     * whose process died keeps its session busy this long at most (PostgreSQL mode).
     */
    SESSION_LEASE_MS: intFromEnv(30_000),
    /** How long start-up keeps trying an unreachable database (serving 503 meanwhile) before exit 1. */
    DATABASE_STARTUP_TIMEOUT_MS: intFromEnv(300_000),
    ...widgetEnv,
    ...operatorEnv,
    /**
     * The service's base URL as callers reach it (behind a proxy, e.g. https://helpdesk.example):
     * what the A2A agent card advertises. Default: the address the service listens on, as the
     * card's connection reached it (never the request's Host header, which the caller writes).
     */
    PUBLIC_URL: urlFromEnv()
      .refine(
        (value) => value === undefined || isBaseUrl(value),
        'must be a base URL, without user, query or fragment',
      )
      .transform((value) => value?.replace(/\/+$/, '')),
    /** WEBHOOK_*: endpoints for `ticket.created` and `turn.failed` (packages/webhooks). */
    ...webhooksEnv(),
    /**
     * lookup_invoice's and check_service_status's own data: `GET {url}/{id}` answers the record as
     * JSON, 404 when there is none (README, Tool data sources). Unset: the static demo data.
     */
    INVOICE_SOURCE_URL: urlFromEnv(),
    STATUS_SOURCE_URL: urlFromEnv(),
    /** Per request to a tool data source; past it the tool says the system is not answering. */
    TOOL_SOURCE_TIMEOUT_MS: intFromEnv(5_000),
    /** KB_DIR (help center articles, loaded at start and watched) and KB_SCHEMA (default knowledge). */
    ...knowledgeEnv(),
  })
  .superRefine(authEnvRules);

export type ServiceEnv = z.infer<typeof serviceEnvSchema> & {
  agentModel: AgentModelSettings;
  /** SUPPORT_PROFILE_FILE, PROMPTS_DIR, PROFILE_*: the company, the voice and the agents' prompts. */
  support: { profile: SupportProfile; prompts: SupportPrompts };
};

/**
 * The whole configuration of the service. Throws ConfigError naming the first bad variable, or the
 * profile's bad field or prompt file.
 */
export function loadServiceEnv(env: Env = process.env): ServiceEnv {
  return {
    ...parseEnv(serviceEnvSchema, env),
    agentModel: loadAgentModelSettings(env),
    support: loadSupportConfig(env),
  };
}

/** Only the model settings, for agents/agent.ts (the benchmark's `adk api_server` peer). */
export function loadAgentEnv(env: Env = process.env): AgentModelSettings {
  return loadAgentModelSettings(env);
}
