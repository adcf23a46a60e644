import {
  createHttpApp,
  createLogger,
  readPackageVersion,
  type AuthSettings,
  type Logger,
  type ResponseEvent,
  type Route,
} from '@repo/http-kit';
import type { Express } from 'express';
import { knowledgeRoutes, type KnowledgeBase } from '@repo/knowledge';
import type { Registry } from 'prom-client';
import type { ThreadService } from './operations/thread-service.js';
import type { QuarantineList } from './mailbox/quarantine.js';
import { mailboxRoutes } from './routes/mailbox-routes.js';
import { threadRoutes } from './routes/thread-routes.js';
import { eventsRoute } from './routes/event-routes.js';
import { labelRoutes } from './routes/label-routes.js';
import { DEFAULT_LABELS, type Labels } from './workflow/classification.js';
import { ChangeFeed } from './changes/change-feed.js';
import { MemoryOutbox, webhookRoutes, type Outbox } from '@repo/webhooks';
import { outboxDeps } from './webhooks/thread-webhooks.js';
import { REVIEW_INBOX_PATHS, reviewInbox } from './web/review-inbox.js';

export interface AppDeps {
  threads: ThreadService;
  logger: Logger;
  apiToken?: string;
  /** Named tokens and JWTs (API_TOKENS, AUTH_JWKS_URL); the actor of each change. */
  auth?: AuthSettings;
  /** Throws when not ready; its details (the mailbox's state) go into /readyz's answer. */
  readiness?: () => Promise<void | Record<string, string>>;
  /** GET /mailbox/quarantine's source (a mailbox is configured). */
  listQuarantine?: () => Promise<QuarantineList>;
  /** Called for every finished response (tests check the OpenAPI document lists each answer). */
  onResponse?: (event: ResponseEvent) => void;
  /** GET /metrics from this registry, behind the token unless `public` (METRICS_PUBLIC). */
  metrics?: { registry: Registry; public?: boolean };
  /** A server span per request, its trace id in the request's log lines (tracing on). */
  tracing?: boolean;
  /** How long POST /threads waits for the draft before answering 202 (CREATE_WAIT_MS, default 30 s). */
  createWaitMs?: number;
  /** Thread changes for GET /events (the persistence's feed). */
  changes?: ChangeFeed;
  /** Keep-alive comments on GET /events this often (default 15 s). */
  sseHeartbeatMs?: number;
  /** GET /webhooks/deliveries and their retry (the persistence's outbox). */
  outbox?: Outbox;
  /** The support profile's categories and urgencies (default: DEFAULT_LABELS). */
  labels?: Labels;
  /** The help center's knowledge base: GET/PUT/DELETE /kb/articles, GET /kb/search (behind the token). */
  knowledge?: KnowledgeBase;
  /** GET /guidelines and its changes, GET /quality (behind the token). */
  reviewerRoutes?: Route[];
}

const DEFAULT_CREATE_WAIT_MS = 30_000;

const version = readPackageVersion(new URL('../package.json', import.meta.url));

/** The documented API over a thread service: what createApp serves, and what /openapi.json describes. */
export function emailReviewApi(
  threads: ThreadService,
  options: {
    createWaitMs?: number;
    changes?: ChangeFeed;
    sseHeartbeatMs?: number;
    outbox?: Outbox;
    listQuarantine?: () => Promise<QuarantineList>;
    labels?: Labels;
    knowledge?: KnowledgeBase;
    reviewerRoutes?: Route[];
  } = {},
) {
  const labels = options.labels ?? DEFAULT_LABELS;
  const outbox =
    options.outbox ??
    new MemoryOutbox(
      outboxDeps(undefined, createLogger({ name: 'email-review', level: 'silent' })),
    );
  return {
    title: 'email-review',
    version,
    description:
      'Drafts replies to inbound emails with an LLM and sends them only after a human approves.',
    routes: [
      ...threadRoutes(threads, {
        createWaitMs: options.createWaitMs ?? DEFAULT_CREATE_WAIT_MS,
        labels,
      }),
      ...labelRoutes(labels),
      eventsRoute(options.changes ?? new ChangeFeed(), { heartbeatMs: options.sseHeartbeatMs }),
      ...webhookRoutes(outbox),
      ...mailboxRoutes(options.listQuarantine),
      ...(options.knowledge ? knowledgeRoutes(options.knowledge) : []),
      ...(options.reviewerRoutes ?? []),
    ],
  };
}

/** The HTTP API over a thread service. Never listens: server.ts and tests decide that. */
export function createApp(deps: AppDeps): Express {
  return createHttpApp({
    name: 'email-review',
    logger: deps.logger,
    apiToken: deps.apiToken,
    auth: deps.auth,
    readiness: deps.readiness,
    onResponse: deps.onResponse,
    metrics: deps.metrics,
    ...(deps.tracing ? { tracing: true } : {}),
    // Only the page and its assets are open (the page asks for the token); /openapi.json is not.
    publicPaths: REVIEW_INBOX_PATHS,
    configure: reviewInbox(),
    rawBodyTypes: ['message/rfc822'],
    api: emailReviewApi(deps.threads, {
      createWaitMs: deps.createWaitMs,
      changes: deps.changes,
      sseHeartbeatMs: deps.sseHeartbeatMs,
      outbox: deps.outbox,
      listQuarantine: deps.listQuarantine,
      labels: deps.labels,
      knowledge: deps.knowledge,
      reviewerRoutes: deps.reviewerRoutes,
    }),
  });
}
