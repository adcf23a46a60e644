import { readFileSync } from 'node:fs';
import { createHttpApp, type Logger, type ResponseEvent } from '@repo/http-kit';
import type { Express } from 'express';
import { z } from 'zod';
import type { ThreadService } from './operations/thread-service.js';
import { threadRoutes } from './routes/thread-routes.js';
import { REVIEW_INBOX_PATHS, reviewInbox } from './web/review-inbox.js';

export interface AppDeps {
  threads: ThreadService;
  logger: Logger;
  apiToken?: string;
  readiness?: () => Promise<void>;
  /** Called for every finished response (tests check the OpenAPI document lists each answer). */
  onResponse?: (event: ResponseEvent) => void;
}

/** The app's package.json version, the OpenAPI document's `info.version` (same path from src/ and dist/). */
const { version } = z
  .object({ version: z.string() })
  .parse(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')));

/** The documented API over a thread service: what createApp serves, and what /openapi.json describes. */
export function emailReviewApi(threads: ThreadService) {
  return {
    title: 'email-review',
    version,
    description:
      'Drafts replies to inbound emails with an LLM and sends them only after a human approves.',
    routes: threadRoutes(threads),
  };
}

/** The HTTP API over a thread service. Never listens: server.ts and tests decide that. */
export function createApp(deps: AppDeps): Express {
  return createHttpApp({
    name: 'email-review',
    logger: deps.logger,
    ...(deps.apiToken ? { apiToken: deps.apiToken } : {}),
    ...(deps.readiness ? { readiness: deps.readiness } : {}),
    ...(deps.onResponse ? { onResponse: deps.onResponse } : {}),
    // Only the page and its assets are open (the page asks for the token); /openapi.json is not.
    publicPaths: REVIEW_INBOX_PATHS,
    configure: reviewInbox(),
    rawBodyTypes: ['message/rfc822'],
    api: emailReviewApi(deps.threads),
  });
}
