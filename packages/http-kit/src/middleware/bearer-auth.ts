import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { HttpError } from '../errors/http-error.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Requires `Authorization: Bearer <token>` on every path except `openPaths`.
 * Both sides are hashed first so the comparison is constant-time whatever the lengths.
 */
export function bearerAuth(token: string, isOpenPath: (path: string) => boolean): RequestHandler {
  const expected = digest(token);
  return (req, _res, next) => {
    if (isOpenPath(req.path)) return next();
    const match = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '');
    if (match && timingSafeEqual(digest(match[1]!), expected)) return next();
    throw new HttpError(
      401,
      'unauthorized',
      'A valid bearer token is required.',
      {},
      {
        'WWW-Authenticate': 'Bearer',
      },
    );
  };
}
