import {
  authSettingsFromEnv,
  createLogger,
  createMetricsRegistry,
  serve,
  startTracing,
  tracingSettingsFromEnv,
} from '@repo/http-kit';
import { loadOrExit, redactSecrets } from '@repo/llm-config';
import { exitDatabaseUnreachable } from '@repo/pg-kit';
import pg from 'pg';
import { routeAdkLogsTo } from './agents/adk-logging.js';
import { webhookSettings } from '@repo/webhooks';
import { loadServiceEnv } from './env.js';
import { createHelpdesk } from './helpdesk.js';
import { httpInvoices, httpServiceStatuses } from './tools/http-sources.js';

const env = loadOrExit(() => loadServiceEnv(), 'helpdesk');
const logger = createLogger({ name: 'helpdesk', level: env.LOG_LEVEL });
routeAdkLogsTo(logger);
const tracing = await startTracing(tracingSettingsFromEnv('helpdesk', env), { pg });

const toolTimeoutMs = env.TOOL_SOURCE_TIMEOUT_MS;
const helpdesk = createHelpdesk({
  model: env.agentModel,
  appName: env.agentModel.appName,
  logger,
  // With DATABASE_URL, sessions live in PostgreSQL; start-up does not wait for it (see below).
  database: env.DATABASE_URL
    ? {
        connectionString: env.DATABASE_URL,
        schema: env.DATABASE_SCHEMA,
        poolMax: env.PG_POOL_MAX,
        preparedStatements: env.PG_PREPARED_STATEMENTS,
        leaseMs: env.SESSION_LEASE_MS,
        connectTimeoutMs: env.PG_CONNECT_TIMEOUT_MS,
        queryTimeoutMs: env.PG_QUERY_TIMEOUT_MS,
      }
    : undefined,
  chat: { sessionTtlMs: env.SESSION_TTL_SECONDS * 1000, maxSessions: env.MAX_SESSIONS },
  apiToken: env.API_TOKEN,
  auth: authSettingsFromEnv(env),
  metrics: { registry: createMetricsRegistry(), public: env.METRICS_PUBLIC },
  tracing,
  widget: {
    allowedOrigins: env.WIDGET_ALLOWED_ORIGINS,
    ...(env.WIDGET_PUBLIC && {
      public: { perIp: env.WIDGET_RATE_PER_IP, perSession: env.WIDGET_RATE_PER_SESSION },
    }),
  },
  publicUrl: env.PUBLIC_URL,
  trustProxy: env.TRUST_PROXY,
  operators: env.OPERATORS,
  handoffWaitMs: env.HANDOFF_WAIT_SECONDS * 1000,
  webhooks: webhookSettings(env),
  prompts: env.support.prompts,
  toolSources: {
    ...(env.INVOICE_SOURCE_URL && {
      invoices: httpInvoices({ url: env.INVOICE_SOURCE_URL, timeoutMs: toolTimeoutMs }),
    }),
    ...(env.STATUS_SOURCE_URL && {
      services: httpServiceStatuses({ url: env.STATUS_SOURCE_URL, timeoutMs: toolTimeoutMs }),
    }),
  },
  helpCenter: { dir: env.KB_DIR, schema: env.KB_SCHEMA },
});
helpdesk.startSweep();

// Set when shutdown begins: a start-up still waiting for the database then stops quietly.
let closing = false;
const running = await serve(helpdesk.app, {
  port: env.PORT,
  host: env.HOST,
  logger,
  onDraining: [() => helpdesk.endStreams()],
  onClose: [
    () => {
      closing = true;
      return helpdesk.close();
    },
    () => tracing.shutdown(),
  ],
});
// Listening, not yet serving: /healthz answers from here on, /readyz and requests once ready (below).
logger.info({ url: running.url }, `helpdesk starting on ${running.url}`);

/**
 * True once the service serves; false when shutdown began first. While the database is away,
 * start() retries (/readyz and requests answer 503) for DATABASE_STARTUP_TIMEOUT_MS, then exit 1.
 */
async function becomeReady(): Promise<boolean> {
  try {
    await helpdesk.start({ untilMs: env.DATABASE_STARTUP_TIMEOUT_MS });
  } catch (error) {
    if (closing) return false;
    const database = { connectionString: env.DATABASE_URL ?? '', schema: env.DATABASE_SCHEMA };
    exitDatabaseUnreachable(logger, { ...database, redact: redactSecrets }, error);
  }
  return !closing;
}

const postgres = helpdesk.sessions === 'postgres';
const sessions = postgres
  ? `sessions=postgres schema=${env.DATABASE_SCHEMA}`
  : 'sessions=memory (conversations are lost on restart; set DATABASE_URL to keep them)';
if (await becomeReady())
  logger.info(
    {
      url: running.url,
      model: env.agentModel.model,
      sessions: helpdesk.sessions,
      settings: redactSecrets({
        ...env.agentModel,
        SESSION_TTL_SECONDS: env.SESSION_TTL_SECONDS,
        MAX_SESSIONS: env.MAX_SESSIONS,
        // Whom the agents speak for, and where their articles and data come from.
        company_name: env.support.profile.company_name,
        KB_DIR: env.KB_DIR,
        INVOICE_SOURCE_URL: env.INVOICE_SOURCE_URL,
        STATUS_SOURCE_URL: env.STATUS_SOURCE_URL,
        ...(postgres && {
          DATABASE_SCHEMA: env.DATABASE_SCHEMA,
          PG_POOL_MAX: env.PG_POOL_MAX,
          SESSION_LEASE_MS: env.SESSION_LEASE_MS,
          KB_SCHEMA: env.KB_SCHEMA,
        }),
      }),
    },
    `helpdesk ready on ${running.url} ${sessions}`,
  );
