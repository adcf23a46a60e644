import type { LlmAgent, Runner } from '@google/adk';
import type { Logger, Tracing } from '@repo/http-kit';
import { createRootAgent, type AgentPrompts } from './agents/agent-tree.js';
import { createApp, type AppDeps } from './app.js';
import {
  createChatService,
  sessionSettings,
  type ChatServiceOptions,
} from './chat/chat-service.js';
import { openPostgresSessions, type PostgresSessionsOptions } from './db/postgres-sessions.js';
import type { ModelPatches, ModelSettings } from './llm/model.js';
import { handoffMetrics } from './operator/handoff-metrics.js';
import { LiveFeed } from './operator/live-feed.js';
import { helpdeskTelemetry } from './telemetry/helpdesk-telemetry.js';
import type { InvoiceAccessRule } from './tools/invoice-access.js';
import type { ToolSources } from './tools/tool-sources.js';
import { DEFAULT_KB_SCHEMA } from '@repo/knowledge';
import { DatabaseUnavailable } from '@repo/pg-kit';
import { openAgentHelpCenter, type HelpCenterSettings } from './help-center/help-center.js';
import { deliveryMetrics, MemoryOutbox, noWebhooks, type WebhookSettings } from '@repo/webhooks';

/** Sessions in PostgreSQL (DATABASE_URL). */
export type HelpdeskDatabase = Omit<
  PostgresSessionsOptions,
  'settings' | 'logger' | 'knowledgeSchema' | 'webhooks'
>;

/** What the HTTP app takes goes to it as given (app.ts). */
export interface HelpdeskDeps extends Pick<
  AppDeps,
  | 'apiToken'
  | 'auth'
  | 'sseHeartbeatMs'
  | 'onResponse'
  | 'metrics'
  | 'widget'
  | 'publicUrl'
  | 'trustProxy'
  | 'operators'
> {
  /** The agents' model (AGENT_LLM_*). */
  model: ModelSettings;
  /** Passed to ADK's Runner (default helpdesk). */
  appName?: string;
  logger: Logger;
  /** Unset: sessions in process memory. */
  database?: HelpdeskDatabase;
  /** The chat service's settings (default TTL 1 h, 10 000 sessions). */
  chat?: Partial<Omit<ChatServiceOptions, 'agent' | 'runner' | 'plugins'>>;
  /** A Runner of the caller's own over the agent tree (default: the chat service's). */
  runner?: (agent: LlmAgent) => Runner;
  patches?: ModelPatches;
  tracing?: Tracing;
  /** Webhook endpoints and delivery settings (default: none). */
  webhooks?: WebhookSettings;
  /** Who may see which invoice through `lookup_invoice` (default: defaultInvoiceAccess). */
  invoiceAccess?: InvoiceAccessRule;
  /** The support profile's prompts; default the package's prompts without a profile. */
  prompts?: AgentPrompts;
  /** Where lookup_invoice and check_service_status read; default the static data. */
  toolSources?: Partial<ToolSources>;
  /** The help center (KB_DIR, KB_SCHEMA). */
  helpCenter?: HelpCenterSettings;
  /** HANDOFF_WAIT_SECONDS: how long a conversation waits for a person before the customer is told. */
  handoffWaitMs?: number;
}

const DEFAULT_TTL_MS = 3_600_000;
const DEFAULT_MAX_SESSIONS = 10_000;
const MAX_SWEEP_EVERY_MS = 60_000;
const DEFAULT_HANDOFF_WAIT_MS = 120_000;

/**
 * Wires the agent tree, the chat service over its sessions (memory or PostgreSQL), telemetry and
 * the HTTP app. Nothing listens or connects until `start()`; `startSweep()` starts the TTL sweep.
 */
export function createHelpdesk(deps: HelpdeskDeps) {
  const telemetry = helpdeskTelemetry({
    registry: deps.metrics?.registry,
    provider: deps.model.provider ?? 'gemini',
    tracing: deps.tracing,
  });
  const webhooks = {
    settings: deps.webhooks ?? noWebhooks(),
    metrics: deliveryMetrics(deps.metrics?.registry),
  };
  const sessionOptions = {
    appName: deps.appName ?? 'helpdesk',
    sessionTtlMs: DEFAULT_TTL_MS,
    maxSessions: DEFAULT_MAX_SESSIONS,
    ...deps.chat,
  };
  const postgres =
    deps.database &&
    openPostgresSessions({
      ...deps.database,
      knowledgeSchema: deps.helpCenter?.schema ?? DEFAULT_KB_SCHEMA,
      settings: sessionSettings(sessionOptions),
      logger: deps.logger,
      webhooks,
    });
  const helpCenter = openAgentHelpCenter({
    settings: deps.helpCenter ?? {},
    database: postgres,
    logger: deps.logger,
    registry: deps.metrics?.registry,
  });
  const agent = createRootAgent(deps.model, {
    patches: deps.patches,
    observeModel: telemetry.model,
    tools: {
      invoiceAccess: deps.invoiceAccess,
      sources: deps.toolSources,
      helpCenter: helpCenter.search,
    },
    prompts: deps.prompts,
  });
  const outbox = postgres?.outbox ?? new MemoryOutbox({ ...webhooks, logger: deps.logger });
  // Read at scrape time, once `chat` exists.
  const takeovers =
    deps.metrics && handoffMetrics(deps.metrics.registry, () => chat.desk.waitingCount());
  const chat = telemetry.chat(
    createChatService({
      ...sessionOptions,
      agent,
      plugins: telemetry.plugins,
      onAnswer: helpCenter.observeAnswer,
      runner: deps.runner?.(agent),
      // Else deps.chat's own, if it injects them.
      ...(postgres && {
        handoffs: postgres.handoffs,
        sessionService: postgres.sessionService,
        sessionTurns: postgres.turns,
      }),
      onTakeover: takeovers?.observeTakeover,
      webhooks: { outbox, includeContent: webhooks.settings.includeContent },
    }),
  );
  const handoffWaitMs = deps.handoffWaitMs ?? DEFAULT_HANDOFF_WAIT_MS;
  const liveFeed = new LiveFeed(chat.desk.live);
  const app = createApp({
    ...deps,
    liveFeed,
    chat,
    outbox,
    tracing: deps.tracing?.enabled,
    database: Boolean(postgres),
    readiness: [
      ...(postgres ? [{ name: 'database', check: postgres.readiness }] : []),
      ...(helpCenter.readiness ? [helpCenter.readiness] : []),
    ],
    knowledge: helpCenter.kb,
  });
  let sweep: NodeJS.Timeout | undefined;
  let waits: NodeJS.Timeout | undefined;
  let closed: Promise<void> | undefined;
  return {
    app,
    chat,
    agent,
    sessions: postgres ? ('postgres' as const) : ('memory' as const),
    /** Sets the session database up, loads the help center, starts the handoff wait check. */
    start: async (retry?: { untilMs?: number }) => {
      await postgres?.start(retry);
      await helpCenter.start();
      if (closed) return;
      waits ??= repeat(Math.max(50, Math.min(handoffWaitMs / 4, 5_000)), {
        task: () => chat.desk.tellOverdue(handoffWaitMs),
        failed: 'handoff wait check failed',
        logger: deps.logger,
      });
    },
    /** The knowledge base search_help_center and /kb/* use. */
    knowledge: helpCenter.kb,
    /** Frees idle sessions (requests evict only those they meet) every TTL or minute. */
    startSweep: () => {
      sweep ??= repeat(Math.min(sessionOptions.sessionTtlMs, MAX_SWEEP_EVERY_MS), {
        task: () => chat.evictExpired(),
        failed: 'session sweep failed',
        logger: deps.logger,
      });
    },
    /** Ends the open live streams (they never end by themselves): for the shutdown's drain. */
    endStreams: () => liveFeed.endAll(),
    close: () =>
      (closed ??= (async () => {
        clearInterval(sweep);
        clearInterval(waits);
        await helpCenter.close();
        if (postgres) await postgres.close();
        else await outbox.close();
      })()),
  };
}

/**
 * Runs `task` every `everyMs` on this instance: timers, not pg-boss (its cron ticks once a minute
 * at most), as each task is safe on every instance at once. The database away is logged by pg-kit.
 */
function repeat(
  everyMs: number,
  options: { task: () => Promise<unknown>; failed: string; logger: Logger },
): NodeJS.Timeout {
  const timer = setInterval(() => {
    options.task().catch((error: unknown) => {
      if (!(error instanceof DatabaseUnavailable))
        options.logger.warn({ err: error }, options.failed);
    });
  }, everyMs);
  timer.unref();
  return timer;
}
