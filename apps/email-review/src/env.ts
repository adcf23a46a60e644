import { authEnvRules, flagFromEnv, httpServiceEnv } from '@repo/http-kit';
import { databaseEnv } from '@repo/pg-kit';
import { knowledgeEnv } from '@repo/knowledge';
import { loadSupportConfig } from '@repo/support-profile';
import { webhooksEnv } from '@repo/webhooks';
import { z } from 'zod';
import { DEFAULT_RETRY_POLICY } from './delivery/retry-policy.js';
import { mailboxSchema } from './email/mailbox.js';
import { intFromEnv, loadOpenAiSettings, parseEnv, type OpenAiSettings } from '@repo/llm-config';
import { labelsOf } from './workflow/classification.js';

type Env = Record<string, string | undefined>;

/** A URL whose parts the mailbox decodes (a stray `%` would throw at each connection). */
function decodableUrl(value: string): boolean {
  try {
    const url = new URL(value);
    for (const part of [url.username, url.password, url.pathname]) decodeURIComponent(part);
    return true;
  } catch {
    return false;
  }
}

/** http-kit's PORT, HOST, API_TOKEN and LOG_LEVEL, the database settings, and the service's own. */
const serviceEnvSchema = httpServiceEnv(3001)
  .extend({
    /** DATABASE_URL: threads, checkpoints and jobs in PostgreSQL (DATABASE_SCHEMA); unset: memory. */
    ...databaseEnv({ poolMax: 10, queryTimeoutMs: 5_000 }),
    /** Where approved replies go (a secret: credentials in the URL); unset: delivery to the log. */
    SMTP_URL: z
      .string()
      .trim()
      .regex(/^smtps?:\/\/[^\s]+$/, 'must be an smtp:// or smtps:// URL')
      .optional(),
    /** true: smtp:// with credentials, or imap://, may log in unencrypted without STARTTLS. */
    MAIL_ALLOW_PLAINTEXT_AUTH: flagFromEnv(false),
    /** The replies' From; required with SMTP_URL. */
    MAIL_FROM: mailboxSchema.optional(),
    /** Each of connecting to the SMTP server, its greeting, and any silence on the socket. */
    SMTP_TIMEOUT_MS: intFromEnv(20_000),
    /** The delivery retries: first wait (s), whether waits double (jittered), attempts in all. */
    DELIVERY_RETRY_DELAY_SECONDS: intFromEnv(DEFAULT_RETRY_POLICY.delaySeconds),
    DELIVERY_RETRY_BACKOFF: flagFromEnv(true),
    DELIVERY_MAX_ATTEMPTS: intFromEnv(DEFAULT_RETRY_POLICY.maxAttempts),
    /** How long a worker may hold a message before another may take it (PostgreSQL mode). */
    DELIVERY_LEASE_SECONDS: intFromEnv(120),
    /** Messages this instance delivers at once. */
    DELIVERY_CONCURRENCY: intFromEnv(4),
    /** The most one step spends retrying the model: an answer comes before a proxy's 60 s. */
    LLM_RETRY_BUDGET_MS: intFromEnv(20_000),
    /** How long POST /threads waits for the draft; then 202 with the thread still drafting. */
    CREATE_WAIT_MS: intFromEnv(30_000),
    /** Keep-alive comments on GET /events this often (proxies close streams idle for long). */
    EVENTS_KEEPALIVE_MS: intFromEnv(15_000),
    /** WEBHOOK_*: endpoints for the thread and delivery events (packages/webhooks). */
    ...webhooksEnv(),
    /** The longest a model job may run before another instance takes it (after a crash). */
    MODEL_JOB_LEASE_SECONDS: intFromEnv(120),
    /** Model jobs of dead instances this instance runs at once. */
    MODEL_JOB_CONCURRENCY: intFromEnv(2),
    /** How long start-up keeps trying an unreachable database (serving 503 meanwhile) before exit 1. */
    DATABASE_STARTUP_TIMEOUT_MS: intFromEnv(300_000),
    /** The mailbox read (`imaps://user:password@host:993/INBOX`; a secret); unset: none. */
    IMAP_URL: z
      .string()
      .trim()
      .regex(/^imaps?:\/\/[^\s]+$/, 'must be an imap:// or imaps:// URL')
      .refine(decodableUrl, 'must be a URL whose user, password and path are percent-encoded')
      .optional(),
    /** An OAuth2 access token (XOAUTH2) instead of the URL's password; the file is re-read on each connect. */
    IMAP_XOAUTH2_TOKEN: z.string().trim().min(1).optional(),
    IMAP_XOAUTH2_TOKEN_FILE: z.string().trim().min(1).optional(),
    /** How often the mailbox is looked at anyway; under the socket's 5-minute silence limit. */
    IMAP_POLL_MS: intFromEnv(30_000).pipe(z.number().max(240_000)),
    /** Each of connecting, the greeting and any silence on the IMAP socket. */
    IMAP_TIMEOUT_MS: intFromEnv(20_000),
    /** Where a message goes once its thread is created; unset: it stays, flagged \Seen. */
    IMAP_PROCESSED_FOLDER: z.string().trim().min(1).optional(),
    /** Where a message the service cannot read goes (never deleted). */
    IMAP_QUARANTINE_FOLDER: z.string().trim().min(1).default('Quarantine'),
    /** Where approved replies are filed after SMTP accepted them; unset: the \Sent special-use folder. */
    IMAP_SENT_FOLDER: z.string().trim().min(1).optional(),
    /** Finished threads (rejected, or sent and delivered or logged) older than this many days are deleted; unset: kept forever. */
    THREAD_RETENTION_DAYS: z.coerce.number().int().min(1).optional(),
    /** Threads whose reply did not go out (failed, no recipient, draft failed) go this many days after their last change. */
    THREAD_RETENTION_UNSENT_DAYS: z.coerce.number().int().min(1).optional(),
    /** KB_DIR, KB_SCHEMA: the help center's folder and its schema in PostgreSQL (as helpdesk's). */
    ...knowledgeEnv(),
  })
  .refine((env) => !env.SMTP_URL || env.MAIL_FROM, {
    path: ['MAIL_FROM'],
    message: 'is required when SMTP_URL is set (the address replies are sent from)',
  })
  .refine((env) => !env.THREAD_RETENTION_UNSENT_DAYS || env.THREAD_RETENTION_DAYS, {
    path: ['THREAD_RETENTION_UNSENT_DAYS'],
    message: 'needs THREAD_RETENTION_DAYS (without it nothing is ever deleted)',
  })
  .refine((env) => env.DELIVERY_LEASE_SECONDS * 1000 > 3 * env.SMTP_TIMEOUT_MS, {
    path: ['DELIVERY_LEASE_SECONDS'],
    message: 'must exceed three SMTP_TIMEOUT_MS (connect, greeting, transfer)',
  })
  .refine((env) => env.MODEL_JOB_LEASE_SECONDS * 1000 > 2 * env.LLM_RETRY_BUDGET_MS, {
    path: ['MODEL_JOB_LEASE_SECONDS'],
    message: 'must exceed two LLM_RETRY_BUDGET_MS (classify, then draft)',
  })
  .superRefine(authEnvRules);

/**
 * The whole configuration of the service. Throws ConfigError naming the first bad variable, or the
 * profile's bad field or prompt file.
 */
export function loadServiceEnv(env: Env = process.env) {
  const parsed = parseEnv(serviceEnvSchema, env);
  return { ...parsed, openai: loadOpenAiSettings(env), support: loadSupport(env) };
}

/** SUPPORT_PROFILE_FILE, PROMPTS_DIR, PROFILE_*: the profile, its rendered prompts and its labels. */
export function loadSupport(env: Env = process.env) {
  const { profile, prompts } = loadSupportConfig(env);
  return { profile, prompts, labels: labelsOf(profile) };
}

/** Only the model settings, for LangGraph's own server (this file stays the only env reader). */
export function loadWorkflowEnv(env: Env = process.env): OpenAiSettings {
  return loadOpenAiSettings(env);
}
