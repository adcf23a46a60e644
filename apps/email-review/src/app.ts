import {
  createHttpApp,
  readPackageVersion,
  type HttpAppOptions,
  type Logger,
  type Route,
} from '@repo/http-kit';
import type { Express } from 'express';
import { knowledgeRoutes, type KnowledgeBase } from '@repo/knowledge';
import type { ThreadService } from './operations/thread-service.js';
import type { QuarantineList } from './mailbox/quarantine.js';
import { quarantineRoute } from './routes/mailbox-routes.js';
import { threadRoutes } from './routes/thread-routes.js';
import { eventsRoute } from './routes/event-routes.js';
import { labelsRoute } from './routes/label-routes.js';
import { DEFAULT_LABELS, type Labels } from './workflow/classification.js';
import { ChangeFeed } from './changes/change-feed.js';
import { MemoryOutbox, webhookRoutes, type Outbox } from '@repo/webhooks';
import { outboxDeps } from './webhooks/thread-webhooks.js';
import { REVIEW_INBOX_PATHS, reviewInbox } from './web/review-inbox.js';

/** The documented API's parts beside the thread service; what is unset is served empty. */
export interface ApiOptions {
  /** How long POST /threads waits for the draft before answering 202 (default 30 s). */
  createWaitMs?: number;
  /** Thread changes for GET /events (the persistence's feed). */
  changes?: ChangeFeed;
  /** Keep-alive comments on GET /events this often (default 15 s). */
  sseHeartbeatMs?: number;
  /** GET /webhooks/deliveries and their retry (the persistence's outbox). */
  outbox?: Outbox;
  /** GET /mailbox/quarantine's source (a mailbox is configured). */
  listQuarantine?: () => Promise<QuarantineList>;
  /** The support profile's categories and urgencies (default: DEFAULT_LABELS). */
  labels?: Labels;
  /** GET/PUT/DELETE /kb/articles, GET /kb/search: the help center's knowledge base. */
  knowledge?: KnowledgeBase;
  /** GET /guidelines and its changes, GET /quality. */
  reviewerRoutes?: Route[];
}

/** The API, and what http-kit's app takes as the service was given it (its docs there). */
export interface AppDeps
  extends
    ApiOptions,
    Pick<HttpAppOptions, 'apiToken' | 'auth' | 'onResponse' | 'metrics' | 'tracing' | 'readiness'> {
  threads: ThreadService;
  logger: Logger;
}

const version = readPackageVersion(new URL('../package.json', import.meta.url));

/** The documented API over a thread service: what createApp serves, and what /openapi.json describes. */
export function emailReviewApi(threads: ThreadService, options: ApiOptions = {}) {
  const labels = options.labels ?? DEFAULT_LABELS;
  const outbox = options.outbox ?? new MemoryOutbox(outboxDeps(undefined));
  return {
    title: 'email-review',
    version,
    description:
      'Drafts replies to inbound emails with an LLM and sends them only after a human approves.',
    routes: [
      ...threadRoutes(threads, { createWaitMs: options.createWaitMs ?? 30_000, labels }),
      labelsRoute(labels),
      eventsRoute(options.changes ?? new ChangeFeed(), { heartbeatMs: options.sseHeartbeatMs }),
      ...webhookRoutes(outbox),
      quarantineRoute(options.listQuarantine),
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
    tracing: deps.tracing,
    // Only the page and its assets are open (the page asks for the token); /openapi.json is not.
    publicPaths: REVIEW_INBOX_PATHS,
    configure: reviewInbox(),
    rawBodyTypes: ['message/rfc822'],
    api: emailReviewApi(deps.threads, deps),
  });
}
