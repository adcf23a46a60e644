import { authEnvRules, flagFromEnv, httpServiceEnv } from '@repo/http-kit';
import { databaseEnv } from '@repo/pg-kit';
import { knowledgeEnv } from '@repo/knowledge';
import { loadSupportConfig } from '@repo/support-profile';
import { webhooksEnv } from '@repo/webhooks';
import { z } from 'zod';
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

/** An origin a page that embeds the chat may have: scheme, host and optional port, nothing else. */
const ORIGIN = /^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$|^https?:\/\/\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/** `*` (any site may frame the chat page) or origins: the page's CSP `frame-ancestors`. */
function allowedOrigins(value: string, ctx: z.RefinementCtx): string[] | '*' {
  const entries = value.split(/[\s,]+/).filter(Boolean);
  if (entries.length === 1 && entries[0] === '*') return '*';
  const bad = entries.find((entry) => !ORIGIN.test(entry));
  if (bad === undefined) return entries;
  ctx.addIssue({ code: 'custom', message: `${bad} is not an origin like https://shop.example` });
  return z.NEVER;
}

const serviceEnvSchema = httpServiceEnv(3002)
  .extend({
    /** Sessions idle for longer than this are forgotten. */
    SESSION_TTL_SECONDS: intFromEnv(3600),
    /** Most sessions kept in memory; the least recently used go first (memory mode only). */
    MAX_SESSIONS: intFromEnv(10_000),
    /** With DATABASE_URL, sessions live in PostgreSQL; otherwise in process memory. */
    ...databaseEnv({ poolMax: 20, queryTimeoutMs: 10_000 }),
    /** A turn whose process died keeps its session busy this long at most (renewed every third). */
    SESSION_LEASE_MS: intFromEnv(30_000),
    /** How long start-up keeps trying an unreachable database (serving 503 meanwhile) before exit 1. */
    DATABASE_STARTUP_TIMEOUT_MS: intFromEnv(300_000),
    WIDGET_ALLOWED_ORIGINS: z.string().trim().default('*').transform(allowedOrigins),
    /** `true`: the chat page, POST /chat and GET /sessions/{id} answer without a token, rate limited. */
    WIDGET_PUBLIC: flagFromEnv(false),
    /** Public widget: requests per minute from one IP address to /chat and /sessions/{id}. */
    WIDGET_RATE_PER_IP: intFromEnv(60),
    /** Public widget: messages per minute to one session. */
    WIDGET_RATE_PER_SESSION: intFromEnv(20),
    /** Who may use the operator console: actor names (API_TOKENS' names, JWT email or subject). */
    OPERATORS: z
      .string()
      .trim()
      .default('')
      .transform((value) => value.split(/[\s,]+/).filter(Boolean)),
    /** How long a conversation waits for a person before the customer is told (it stays queued). */
    HANDOFF_WAIT_SECONDS: intFromEnv(120),
    /**
     * What the A2A agent card advertises (behind a proxy, e.g. https://helpdesk.example). Default:
     * the address the card's connection reached, never the Host header, which the caller writes.
     */
    PUBLIC_URL: urlFromEnv()
      .refine(
        (value) => value === undefined || isBaseUrl(value),
        'must be a base URL, without user, query or fragment',
      )
      .transform((value) => value?.replace(/\/+$/, '')),
    ...webhooksEnv(),
    /** The tools' data: `GET {url}/{id}` (README, Tool data sources); unset: the demo data. */
    INVOICE_SOURCE_URL: urlFromEnv(),
    STATUS_SOURCE_URL: urlFromEnv(),
    /** Per request to a tool data source; past it the tool says the system is not answering. */
    TOOL_SOURCE_TIMEOUT_MS: intFromEnv(5_000),
    ...knowledgeEnv(),
  })
  .superRefine(authEnvRules);

/** The whole configuration; throws ConfigError naming the first bad variable or profile field. */
export function loadServiceEnv(env: Env = process.env) {
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
