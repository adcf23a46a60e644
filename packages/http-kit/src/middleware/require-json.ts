import type { RequestHandler } from 'express';
import { HttpError } from '../errors/http-error.js';

const JSON_TYPES = ['application/json', 'application/*+json'];

/**
 * A request that carries a body must say it is JSON (or one of `extraTypes`, which a service parses
 * itself, e.g. `message/rfc822`); a bodiless POST (e.g. approve) is fine.
 */
export function requireBodyOf(extraTypes: string[] = []): RequestHandler {
  const accepted = [...JSON_TYPES, ...extraTypes];
  return (req, _res, next) => {
    const hasBody =
      req.headers['transfer-encoding'] !== undefined ||
      (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');
    if (!hasBody || req.is(accepted)) return next();
    throw new HttpError(
      415,
      'unsupported_media_type',
      `Request bodies must be ${accepted.filter((type) => !type.includes('*')).join(' or ')}, not ${req.headers['content-type'] ?? 'untyped'}.`,
    );
  };
}

/** A request that carries a body must say it is JSON; a bodiless POST (e.g. approve) is fine. */
export const requireJsonBody: RequestHandler = requireBodyOf();
