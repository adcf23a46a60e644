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
import { createLogTransport } from './delivery/mail-transport.js';
import { createSmtpTransport } from './delivery/smtp-transport.js';
import { createEmailReview } from './email-review.js';
import type { MailboxSettings } from './mailbox/mailbox-service.js';
import { loadServiceEnv } from './env.js';
import { createOpenAiClient } from './llm/openai-client.js';
import { createMemoryPersistence } from './persistence/memory-persistence.js';
import { createPostgresPersistence } from './persistence/postgres-persistence.js';
import { deliveryMetrics, webhookSettings } from '@repo/webhooks';

const env = loadOrExit(() => loadServiceEnv(), 'email-review');
const logger = createLogger({ name: 'email-review', level: env.LOG_LEVEL });
const tracing = await startTracing(tracingSettingsFromEnv('email-review', env), { pg });

const registry = createMetricsRegistry();
const webhooks = { settings: webhookSettings(env), metrics: deliveryMetrics(registry) };

const retry = {
  maxAttempts: env.DELIVERY_MAX_ATTEMPTS,
  delaySeconds: env.DELIVERY_RETRY_DELAY_SECONDS,
  backoff: env.DELIVERY_RETRY_BACKOFF,
};
const persistence = env.DATABASE_URL
  ? createPostgresPersistence({
      connectionString: env.DATABASE_URL,
      schema: env.DATABASE_SCHEMA,
      poolMax: env.PG_POOL_MAX,
      preparedStatements: env.PG_PREPARED_STATEMENTS,
      modelWork: {
        leaseSeconds: env.MODEL_JOB_LEASE_SECONDS,
        concurrency: env.MODEL_JOB_CONCURRENCY,
      },
      connectTimeoutMs: env.PG_CONNECT_TIMEOUT_MS,
      queryTimeoutMs: env.PG_QUERY_TIMEOUT_MS,
      queue: {
        leaseSeconds: env.DELIVERY_LEASE_SECONDS,
        concurrency: env.DELIVERY_CONCURRENCY,
        retry,
      },
      logger,
      webhooks,
    })
  : createMemoryPersistence({ retry, webhooks, logger });

const transport = env.SMTP_URL
  ? createSmtpTransport({
      url: env.SMTP_URL,
      timeoutMs: env.SMTP_TIMEOUT_MS,
      allowPlaintextAuth: env.MAIL_ALLOW_PLAINTEXT_AUTH,
    })
  : createLogTransport(logger);

/** The mailbox reader's settings, when IMAP_URL is set. */
const mailbox: MailboxSettings | undefined = env.IMAP_URL
  ? {
      imap: {
        url: env.IMAP_URL,
        timeoutMs: env.IMAP_TIMEOUT_MS,
        xoauth2Token: env.IMAP_XOAUTH2_TOKEN,
        xoauth2TokenFile: env.IMAP_XOAUTH2_TOKEN_FILE,
        allowPlaintextAuth: env.MAIL_ALLOW_PLAINTEXT_AUTH,
      },
      pollMs: env.IMAP_POLL_MS,
      folders: { quarantine: env.IMAP_QUARANTINE_FOLDER, processed: env.IMAP_PROCESSED_FOLDER },
      sentFolder: env.IMAP_SENT_FOLDER,
    }
  : undefined;

const service = createEmailReview({
  persistence,
  llm: createOpenAiClient(env.openai),
  model: env.openai.model,
  llmRetryBudgetMs: env.LLM_RETRY_BUDGET_MS,
  createWaitMs: env.CREATE_WAIT_MS,
  sseHeartbeatMs: env.EVENTS_KEEPALIVE_MS,
  logger,
  transport,
  mailFrom: env.MAIL_FROM,
  apiToken: env.API_TOKEN,
  auth: authSettingsFromEnv(env),
  metrics: { registry, public: env.METRICS_PUBLIC },
  tracing,
  retention: env.THREAD_RETENTION_DAYS
    ? { days: env.THREAD_RETENTION_DAYS, unsentDays: env.THREAD_RETENTION_UNSENT_DAYS }
    : undefined,
  mailbox,
  support: env.support,
  helpCenter: { dir: env.KB_DIR, schema: env.KB_SCHEMA },
  guidelineDerivation: { leaseSeconds: env.MODEL_JOB_LEASE_SECONDS },
});

// Set when shutdown begins: a start-up still waiting for the database then stops quietly.
let closing = false;
const running = await serve(service.app, {
  port: env.PORT,
  host: env.HOST,
  logger,
  // Open GET /events streams end at once (clients reconnect elsewhere with Last-Event-ID).
  onDraining: [() => service.endStreams()],
  onClose: [
    () => {
      closing = true;
      return service.close();
    },
    () => tracing.shutdown(),
  ],
});

// Listening, not yet serving: /healthz answers from here on, /readyz and requests once ready (below).
logger.info({ url: running.url }, `email-review starting on ${running.url}`);
/**
 * Sets the schema up, retrying while the database is away (503 meanwhile); after
 * DATABASE_STARTUP_TIMEOUT_MS, one line and exit code 1.
 */
async function becomeReady(): Promise<void> {
  try {
    await service.start({ untilMs: env.DATABASE_STARTUP_TIMEOUT_MS });
  } catch (error) {
    if (closing) return;
    const database = { connectionString: env.DATABASE_URL ?? '', schema: env.DATABASE_SCHEMA };
    exitDatabaseUnreachable(logger, { ...database, redact: redactSecrets }, error);
  }
  if (closing) return;
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
      mailbox: service.mailbox.kind,
      // Whom the drafts speak for, what the classifier chooses from, where the articles come from.
      company_name: env.support.profile.company_name,
      categories: env.support.labels.categories.map((label) => label.name),
      kb_dir: env.KB_DIR,
      ...(persistence.kind === 'postgres' ? { kb_schema: env.KB_SCHEMA } : {}),
    },
    // SMTP_URL and IMAP_URL are secrets (credentials): only their kinds are logged.
    `email-review ready on ${running.url} ${storage} delivery=${transport.kind} mailbox=${service.mailbox.kind}`,
  );
}

await becomeReady();
