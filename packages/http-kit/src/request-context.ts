import { AsyncLocalStorage } from 'node:async_hooks';
import type { Logger } from 'pino';

export interface RequestContext {
  requestId: string;
  log: Logger;
}

/** Carries the request id and its child logger through async calls made while serving a request. */
export const requestContext = new AsyncLocalStorage<RequestContext>();

/** The current request's logger, or `fallback` outside any request (start-up, background work). */
export function currentLogger(fallback: Logger): Logger {
  return requestContext.getStore()?.log ?? fallback;
}
