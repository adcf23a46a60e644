import type { Request, RequestHandler } from 'express';
import { HttpError } from '../errors/http-error.js';
import type { Authenticator } from '../auth/authenticator.js';
import { requestContext } from '../request-context.js';

const unauthorized = () =>
  new HttpError(401, 'unauthorized', 'A valid bearer token is required.', {
    headers: { 'WWW-Authenticate': 'Bearer' },
  });

/**
 * Requires `Authorization: Bearer <token>` on every path except `openPaths` and the requests
 * `isOpenRequest` lets through, and records who the token stands for as the request's actor (what
 * a service writes beside each change it makes).
 */
export function bearerAuth(
  authenticate: Authenticator,
  isOpenPath: (path: string) => boolean,
  isOpenRequest: (req: Request) => boolean = () => false,
): RequestHandler {
  return async (req, _res, next) => {
    if (isOpenPath(req.path) || isOpenRequest(req)) return next();
    const match = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '');
    const actor = match ? await authenticate(match[1]!) : undefined;
    if (actor === undefined) throw unauthorized();
    const context = requestContext.getStore();
    if (context) context.actor = actor;
    next();
  };
}
