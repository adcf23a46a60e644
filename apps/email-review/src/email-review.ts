import type { HttpAppOptions, Logger, ReadinessCheck, Tracing } from '@repo/http-kit';
import type OpenAI from 'openai';
import { createApp, type ApiOptions } from './app.js';
import { createDeliveryRunner } from './delivery/delivery-runner.js';
import { createLogTransport, type MailTransport } from './delivery/mail-transport.js';
import type { Persistence } from './persistence/persistence.js';
import { createThreadService } from './operations/thread-service.js';
import { graphOnEachSaver } from './operations/decide-thread.js';
import { runModelJob } from './operations/run-model-job.js';
import { DatabaseUnavailable } from '@repo/pg-kit';
import { mailboxService, type MailboxSettings } from './mailbox/mailbox-service.js';
import { buildEmailGraph, compileEmailGraph } from './workflow/graph.js';
import { emailReviewTelemetry } from './telemetry/email-review-telemetry.js';
import {
  DRAFT_PASSAGES,
  openHelpCenter,
  type HelpCenterSettings,
} from './knowledge/help-center.js';
import {
  GUIDELINE_SELECTION,
  openReviewerGuidelines,
  type DerivationSettings,
} from './guidelines/reviewer-guidelines.js';
import { openDraftQuality } from './quality/draft-quality.js';
import { pipelineVersion } from './quality/draft-stamp.js';
import { DEFAULT_PROMPTS, type EmailPrompts } from './workflow/prompts.js';
import { DEFAULT_LABELS, type Labels } from './workflow/classification.js';
import { createThreadRetention, type RetentionSettings } from './retention/thread-retention.js';

/** The HTTP options go to http-kit's app as given (documented there). */
export interface EmailReviewDeps
  extends
    Pick<HttpAppOptions, 'apiToken' | 'auth' | 'onResponse' | 'metrics'>,
    Pick<ApiOptions, 'createWaitMs' | 'sseHeartbeatMs'> {
  persistence: Persistence;
  llm: OpenAI;
  model: string;
  /** The most time a step spends retrying the model (default 20 s); then 503 with Retry-After. */
  llmRetryBudgetMs?: number;
  logger: Logger;
  /** Where approved replies go: SMTP, or (default) the log. */
  transport?: MailTransport;
  /** The replies' From (MAIL_FROM). */
  mailFrom?: string;
  clock?: () => Date;
  /** Spans for each request, graph node, model call and delivery (startTracing), when enabled. */
  tracing?: Tracing;
  /** The support mailbox to read (IMAP_URL and companions); unset: threads come by POST only. */
  mailbox?: MailboxSettings;
  /** Delete finished threads past this age (PostgreSQL mode); unset: keep them forever. */
  retention?: RetentionSettings;
  /** The support profile's prompts and labels; default: the package's, without a profile. */
  support?: { prompts: EmailPrompts; labels: Labels };
  /** The help center (KB_DIR, KB_SCHEMA): its folder, and its schema in PostgreSQL. */
  helpCenter?: HelpCenterSettings;
  /** The guideline derivation's job lease (server: MODEL_JOB_LEASE_SECONDS). */
  guidelineDerivation?: Pick<DerivationSettings, 'leaseSeconds'>;
}

/** Wires the workflow, the thread service, the delivery worker and the HTTP app over one persistence. */
export function createEmailReview(deps: EmailReviewDeps) {
  const telemetry = emailReviewTelemetry({
    registry: deps.metrics?.registry,
    tracing: deps.tracing,
    threads: deps.persistence.threads,
  });
  const llm = telemetry.model(deps.llm);
  const labels = deps.support?.labels ?? DEFAULT_LABELS;
  const helpCenter = openHelpCenter({
    settings: deps.helpCenter ?? {},
    pool: deps.persistence.database?.pool,
    logger: deps.logger,
    registry: deps.metrics?.registry,
  });
  const prompts = deps.support?.prompts ?? DEFAULT_PROMPTS;
  const guidelines = openReviewerGuidelines({
    database: deps.persistence.database,
    llm,
    model: deps.model,
    threads: deps.persistence.threads,
    logger: deps.logger,
    registry: deps.metrics?.registry,
    clock: deps.clock,
    settings: {
      leaseSeconds: deps.guidelineDerivation?.leaseSeconds,
      modelBudgetMs: deps.llmRetryBudgetMs,
    },
  });
  const quality = openDraftQuality({
    database: deps.persistence.database,
    registry: deps.metrics?.registry,
  });
  const builder = buildEmailGraph({
    llm,
    model: deps.model,
    prompts,
    labels,
    helpCenter: helpCenter.retrieval,
    guidelines: guidelines.forDraft,
    pipelineVersion: pipelineVersion({
      prompts,
      retrieval: { passages: DRAFT_PASSAGES, help_center: Boolean(deps.helpCenter?.dir) },
      guidelines: GUIDELINE_SELECTION,
    }),
    retry: { budgetMs: deps.llmRetryBudgetMs },
    clock: deps.clock,
  });
  const graph = telemetry.graph(compileEmailGraph(builder, deps.persistence.checkpointer));
  const operationDeps = {
    graph,
    graphOn: graphOnEachSaver({ builder, withTelemetry: telemetry.graph }),
    transaction: deps.persistence.transaction.bind(deps.persistence),
    threads: deps.persistence.threads,
    deliveries: deps.persistence.deliveries,
    modelJobs: deps.persistence.modelJobs,
    outbound: { from: deps.mailFrom ?? null },
    logger: deps.logger,
    clock: deps.clock,
    quality: quality.ledger,
    guidelines: guidelines.derivation,
  };
  const threads = createThreadService(operationDeps);
  const mailbox = mailboxService({
    settings: deps.mailbox,
    database: deps.persistence.database,
    createThread: threads.createThread,
    logger: deps.logger,
    registry: deps.metrics?.registry,
    clock: deps.clock,
  });
  const transport = telemetry.transport(
    mailbox.transport(deps.transport ?? createLogTransport(deps.logger)),
  );
  /**
   * Runs the model jobs whose instance died (PostgreSQL mode). Only a run that could not record its
   * failure on the thread (the database away) fails its job, which pg-boss then runs again.
   */
  const modelWork = {
    start: () =>
      deps.persistence.modelJobs.work(async (job, jobId) => {
        await runModelJob(operationDeps, job, jobId).catch((error: unknown) => {
          if (error instanceof DatabaseUnavailable) throw error;
          deps.logger.warn({ err: error, thread_id: job.thread_id }, 'model job failed');
        });
      }),
  };
  const delivery = createDeliveryRunner({
    store: deps.persistence.deliveries,
    transport,
    logger: deps.logger,
    clock: deps.clock,
    onAttempt: telemetry.deliveryAttempt,
  });
  const { readiness } = deps.persistence;
  const readinessChecks: ReadinessCheck[] = [
    ...(readiness ? [{ name: 'database', check: readiness }] : []),
    ...(mailbox.kind === 'imap' ? [{ name: 'mailbox', check: () => mailbox.status.state }] : []),
    ...(helpCenter.readiness ? [helpCenter.readiness] : []),
  ];
  const app = createApp({
    ...deps,
    threads,
    tracing: deps.tracing?.enabled,
    readiness: readinessChecks,
    ...(mailbox.kind === 'imap' ? { listQuarantine: mailbox.listQuarantine } : {}),
    changes: deps.persistence.changes,
    outbox: deps.persistence.outbox,
    labels,
    knowledge: helpCenter.kb,
    reviewerRoutes: [...guidelines.routes, ...quality.routes],
  });
  const retention = createThreadRetention({
    database: deps.persistence.database,
    settings: deps.retention,
    logger: deps.logger,
    clock: deps.clock,
  });
  let closed = false;
  return {
    app,
    /**
     * Sets the database up (retrying for at most `untilMs` while it is away; then rejects), then
     * starts the help center, the workers, the retention job and the mailbox reader.
     */
    start: async (retry?: { untilMs: number }) => {
      await deps.persistence.start?.(retry);
      if (closed) return;
      // A knowledge base not set up yet is set up again by the first draft that searches it.
      await helpCenter.start().catch((error: unknown) => {
        deps.logger.error({ err: error }, 'help center not set up');
      });
      await delivery.start();
      await retention.start();
      await modelWork.start();
      await guidelines.start();
      mailbox.start();
    },
    /** Ends the open GET /events streams (they never end by themselves): for the shutdown's drain. */
    endStreams: () => deps.persistence.changes.close(),
    /** Stops what `start` started (a start still waiting for the database goes no further) and closes the persistence. */
    close: async () => {
      closed = true;
      await mailbox.stop();
      await helpCenter.close();
      await delivery.stop();
      await retention.stop();
      await guidelines.stop();
      await deps.persistence.close();
    },
    graph,
    threads,
    delivery,
    modelWork,
    mailbox,
    retention,
    helpCenter,
    guidelines,
  };
}
