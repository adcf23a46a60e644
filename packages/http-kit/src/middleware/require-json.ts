import type { RequestHandler } from 'express';
import { HttpError } from '../errors/http-error.js';

/** A request that carries a body must say it is JSON; a bodiless POST (e.g. approve) is fine. */
export const requireJsonBody: RequestHandler = (req, _res, next) => {
  const hasBody =
    req.headers['transfer-encoding'] !== undefined ||
    (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');
  if (!hasBody || req.is(['application/json', 'application/*+json'])) return next();
  throw new HttpError(
    415,
    'unsupported_media_type',
    `Request bodies must be application/json, not ${req.headers['content-type'] ?? 'untyped'}.`,
  );
};
