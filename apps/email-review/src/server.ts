import {
  authSettingsFromEnv,
  createLogger,
  createMetricsRegistry,
  serve,
  startTracing,
  tracingSettingsFromEnv,
  type Logger,
} from '@repo/http-kit';
import { loadOrExit, redactSecrets } from '@repo/llm-config';
import { createLogTransport } from './delivery/mail-transport.js';
import { createSmtpTransport } from './delivery/smtp-transport.js';
import { createEmailReview } from './email-review.js';
import { loadServiceEnv, type ServiceEnv } from './env.js';
import { createOpenAiClient } from './llm/openai-client.js';
import { createMemoryPersistence } from './persistence/memory-persistence.js';
import type { Persistence } from './persistence/persistence.js';
import { openPostgresPersistence } from './db/postgres-persistence.js';

const env = loadOrExit(() => loadServiceEnv(), 'email-review');
const logger = createLogger({ name: 'email-review', level: env.LOG_LEVEL });
const tracing = await startTracing(tracingSettingsFromEnv('email-review', env));

/** The configured persistence; an unreachable database ends start-up with one log line and exit 1. */
async function openPersistence(env: ServiceEnv, logger: Logger): Promise<Persistence> {
  if (!env.DATABASE_URL) return createMemoryPersistence();
  try {
    return await openPostgresPersistence({
      connectionString: env.DATABASE_URL,
      schema: env.DATABASE_SCHEMA,
      poolMax: env.PG_POOL_MAX,
      queue: { leaseSeconds: env.DELIVERY_LEASE_SECONDS, concurrency: env.DELIVERY_CONCURRENCY },
      logger,
    });
  } catch (error) {
    const reason = redactSecrets(error instanceof Error ? error.message : String(error));
    const database = redactSecrets(env.DATABASE_URL);
    logger.fatal(
      { database, schema: env.DATABASE_SCHEMA, reason },
      `cannot open the database ${database}: ${reason}`,
    );
    process.exit(1);
  }
}

const persistence = await openPersistence(env, logger);

const transport = env.SMTP_URL
  ? createSmtpTransport({ url: env.SMTP_URL, timeoutMs: env.SMTP_TIMEOUT_MS })
  : createLogTransport(logger);

const { app, delivery, retention } = createEmailReview({
  persistence,
  llm: createOpenAiClient(env.openai),
  model: env.openai.model,
  logger,
  transport,
  ...(env.MAIL_FROM ? { mailFrom: env.MAIL_FROM } : {}),
  retryPolicy: {
    initialDelayMs: env.DELIVERY_RETRY_INITIAL_MS,
    maxDelayMs: env.DELIVERY_RETRY_MAX_MS,
    maxAttempts: env.DELIVERY_MAX_ATTEMPTS,
  },
  sweepMs: env.DELIVERY_SWEEP_MS,
  ...(env.API_TOKEN ? { apiToken: env.API_TOKEN } : {}),
  auth: authSettingsFromEnv(env),
  metrics: { registry: createMetricsRegistry(), public: env.METRICS_PUBLIC },
  tracing,
  ...(env.THREAD_RETENTION_DAYS ? { retention: { days: env.THREAD_RETENTION_DAYS } } : {}),
});
await delivery.start();
await retention.start();

const running = await serve(app, {
  port: env.PORT,
  host: env.HOST,
  logger,
  onClose: [
    () => delivery.stop(),
    () => retention.stop(),
    () => persistence.close(),
    () => tracing.shutdown(),
  ],
});

const storage =
  persistence.kind === 'postgres'
    ? `checkpointer=postgres schema=${env.DATABASE_SCHEMA}`
    : 'checkpointer=memory (threads are lost on restart; set DATABASE_URL to keep them)';
logger.info(
  {
    url: running.url,
    checkpointer: persistence.kind,
    model: env.openai.model,
    auth: Boolean(env.API_TOKEN),
    delivery: transport.kind,
  },
  // SMTP_URL is a secret (credentials): only its kind is logged.
  `email-review listening on ${running.url} ${storage} delivery=${transport.kind}`,
);
