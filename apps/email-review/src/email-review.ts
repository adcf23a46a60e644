import type { AuthSettings, Logger, ResponseEvent } from '@repo/http-kit';
import type OpenAI from 'openai';
import { createApp } from './app.js';
import { createOutboxMailer } from './mailer/outbox-mailer.js';
import type { Mailer } from './mailer/mailer.js';
import type { Persistence } from './persistence/persistence.js';
import { createThreadService } from './operations/thread-service.js';
import { createEmailGraph } from './workflow/graph.js';

export interface EmailReviewDeps {
  persistence: Persistence;
  llm: OpenAI;
  model: string;
  logger: Logger;
  /**
   * Delivers what the outbox lets through (each thread at most once, see createOutboxMailer).
   * Defaults to a log line.
   */
  mailer?: Mailer;
  apiToken?: string;
  auth?: AuthSettings;
  clock?: () => Date;
  /** Called for every finished HTTP response (tests collect them to check the OpenAPI document). */
  onResponse?: (event: ResponseEvent) => void;
}

/** Wires the workflow, the thread service and the HTTP app over one persistence. */
export function createEmailReview(deps: EmailReviewDeps) {
  const mailer = createOutboxMailer(deps.persistence.outbox, deps.logger, deps.mailer);
  const graph = createEmailGraph(
    { llm: deps.llm, model: deps.model, mailer, ...(deps.clock ? { clock: deps.clock } : {}) },
    deps.persistence.checkpointer,
  );
  const threads = createThreadService({
    graph,
    threads: deps.persistence.threads,
    locks: deps.persistence.locks,
    logger: deps.logger,
    ...(deps.clock ? { clock: deps.clock } : {}),
  });
  const app = createApp({
    threads,
    logger: deps.logger,
    ...(deps.apiToken ? { apiToken: deps.apiToken } : {}),
    ...(deps.auth ? { auth: deps.auth } : {}),
    ...(deps.persistence.readiness ? { readiness: deps.persistence.readiness } : {}),
    ...(deps.onResponse ? { onResponse: deps.onResponse } : {}),
  });
  return { app, graph, threads };
}
