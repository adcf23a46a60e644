import { AsyncLocalStorage } from 'node:async_hooks';
import type { Logger } from 'pino';

export interface RequestContext {
  requestId: string;
  log: Logger;
  /** Who is acting: the name of the bearer token or the JWT's email/sub; `anonymous` when the service is open. */
  actor: string;
}

/** Carries the request id and its child logger through async calls made while serving a request. */
export const requestContext = new AsyncLocalStorage<RequestContext>();

/** The current request's logger, or `fallback` outside any request (start-up, background work). */
export function currentLogger(fallback: Logger): Logger {
  return requestContext.getStore()?.log ?? fallback;
}

/** The actor of the current request (see RequestContext.actor); `system` outside any request. */
export function currentActor(): string {
  return requestContext.getStore()?.actor ?? 'system';
}
