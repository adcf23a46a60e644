import {
  authSettingsFromEnv,
  createLogger,
  createMetricsRegistry,
  serve,
  startTracing,
  tracingSettingsFromEnv,
} from '@repo/http-kit';
import { loadOrExit, redactSecrets } from '@repo/llm-config';
import pg from 'pg';
import { routeAdkLogsTo } from './agents/adk-logging.js';
import { createRootAgent } from './agents/agent-tree.js';
import { createApp } from './app.js';
import { createChatService, sessionSettings } from './chat/chat-service.js';
import { openPostgresSessions } from './db/postgres-sessions.js';
import { loadServiceEnv } from './env.js';
import { helpdeskTelemetry } from './telemetry/helpdesk-telemetry.js';

const env = loadOrExit(() => loadServiceEnv(), 'helpdesk');
const logger = createLogger({ name: 'helpdesk', level: env.LOG_LEVEL });
routeAdkLogsTo(logger);
const registry = createMetricsRegistry();
const tracing = await startTracing(tracingSettingsFromEnv('helpdesk', env), { pg });
const telemetry = helpdeskTelemetry({ registry, provider: env.agentModel.provider, tracing });

const sessionTtlMs = env.SESSION_TTL_SECONDS * 1000;
const chatOptions = {
  agent: createRootAgent(env.agentModel, {}, telemetry.model),
  appName: env.agentModel.appName,
  sessionTtlMs,
  maxSessions: env.MAX_SESSIONS,
};
// With DATABASE_URL, sessions live in PostgreSQL; start-up does not wait for it (see below).
const postgres = env.DATABASE_URL
  ? openPostgresSessions({
      connectionString: env.DATABASE_URL,
      schema: env.DATABASE_SCHEMA,
      poolMax: env.PG_POOL_MAX,
      settings: sessionSettings(chatOptions),
      logger,
    })
  : undefined;
const chat = telemetry.chat(
  createChatService({
    ...chatOptions,
    plugins: telemetry.plugins,
    ...(postgres ? { sessionService: postgres.sessionService, sessionTurns: postgres.turns } : {}),
  }),
);
// Requests evict expired sessions as they come; this sweep frees what is idle (in PostgreSQL,
// one instance at a time).
const sweep = setInterval(
  () => {
    chat
      .evictExpired()
      .catch((error: unknown) => logger.warn({ err: error }, 'session sweep failed'));
  },
  Math.min(sessionTtlMs, 60_000),
);
sweep.unref();

const app = createApp({
  chat,
  logger,
  apiToken: env.API_TOKEN,
  auth: authSettingsFromEnv(env),
  metrics: { registry, public: env.METRICS_PUBLIC },
  tracing: tracing.enabled,
  ...(postgres ? { database: { readiness: postgres.readiness } } : {}),
});
const running = await serve(app, {
  port: env.PORT,
  host: env.HOST,
  logger,
  onClose: [() => clearInterval(sweep), () => postgres?.close(), () => tracing.shutdown()],
});
const sessions = postgres
  ? `sessions=postgres schema=${env.DATABASE_SCHEMA}`
  : 'sessions=memory (conversations are lost on restart; set DATABASE_URL to keep them)';
logger.info(
  {
    url: running.url,
    model: env.agentModel.model,
    sessions: postgres ? 'postgres' : 'memory',
    settings: redactSecrets({
      ...env.agentModel,
      SESSION_TTL_SECONDS: env.SESSION_TTL_SECONDS,
      MAX_SESSIONS: env.MAX_SESSIONS,
      ...(postgres ? { DATABASE_SCHEMA: env.DATABASE_SCHEMA, PG_POOL_MAX: env.PG_POOL_MAX } : {}),
    }),
  },
  `helpdesk listening on ${running.url} ${sessions}`,
);
// Listening first: while the database is away, /healthz answers 200 and /readyz 503 (start()
// retries with backoff and logs once), and requests get 503 database_unavailable.
await postgres?.start();
