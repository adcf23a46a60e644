import { createHttpApp, type Logger } from '@repo/http-kit';
import type { Express } from 'express';
import { emailReviewOpenApi } from './routes/openapi.js';
import { threadRoutes } from './routes/threads.js';
import type { ThreadService } from './operations/thread-service.js';
import { REVIEW_INBOX_PATHS, reviewInbox } from './web/review-inbox.js';

export interface AppDeps {
  threads: ThreadService;
  logger: Logger;
  apiToken?: string;
  readiness?: () => Promise<void>;
}

/** The HTTP API over a thread service. Never listens: server.ts and tests decide that. */
export function createApp(deps: AppDeps): Express {
  const routes = threadRoutes(deps.threads);
  const openApi = emailReviewOpenApi({ auth: Boolean(deps.apiToken) });
  routes.get('/openapi.json', (_req, res) => {
    res.json(openApi);
  });
  return createHttpApp({
    name: 'email-review',
    logger: deps.logger,
    ...(deps.apiToken ? { apiToken: deps.apiToken } : {}),
    ...(deps.readiness ? { readiness: deps.readiness } : {}),
    // Only the page and its assets are open (the page asks for the token); /openapi.json is not.
    publicPaths: REVIEW_INBOX_PATHS,
    configure: reviewInbox(),
    routes,
  });
}
