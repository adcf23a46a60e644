import express, { type Express, type Request, type Response } from 'express';
import { rateLimit, type Options } from 'express-rate-limit';
import { JSON_MEDIA_TYPES, problemBody } from '@repo/http-kit';
import { apiCaller, type SessionAccess } from '../sessions/session-access.js';

export interface PublicWidgetLimits {
  /** Requests per minute from one IP address to what the public widget opens. */
  perIp: number;
  /** Messages per minute to one session. */
  perSession: number;
  /** The largest body the app reads (its bodyLimit): the per-session limit reads it first. */
  bodyLimit: string;
}

/** The header the public widget presents a conversation's secret in. */
const WIDGET_TOKEN_HEADER = 'X-Widget-Token';

/**
 * What a customer's browser needs without a token when the widget is public: starting a
 * conversation, its messages and reading it back (each only by its secret). Paths match as
 * Express's router does (any case, one optional trailing slash); every other route keeps the token.
 */
const PUBLIC_ROUTES = [
  { methods: ['POST'], path: /^\/widget\/sessions\/?$/i },
  { methods: ['POST'], path: /^\/chat\/?$/i },
  { methods: ['GET', 'HEAD'], path: /^\/sessions\/[^/]+\/?$/i },
  { methods: ['GET', 'HEAD'], path: /^\/sessions\/[^/]+\/events\/?$/i },
];

/** A request the public widget makes: one of its routes, without `Authorization` (else the API's). */
export const isPublicWidgetRequest = (req: Request): boolean =>
  req.headers.authorization === undefined &&
  PUBLIC_ROUTES.some(({ methods, path }) => methods.includes(req.method) && path.test(req.path));

/**
 * How a request reaches sessions: with a public widget (`publicWidget`: WIDGET_PUBLIC with auth
 * on), a request without a token only by the secret it presents; any other as the API's caller.
 */
export function sessionAccessOf(req: Request, publicWidget: boolean): SessionAccess {
  return publicWidget && isPublicWidgetRequest(req)
    ? { widgetToken: req.get(WIDGET_TOKEN_HEADER) ?? '' }
    : { caller: apiCaller() };
}

/** 429 as problem details; express-rate-limit has set Retry-After and the RateLimit headers. */
function tooMany(scope: 'ip' | 'session') {
  return (_req: Request, res: Response, _next: unknown, options: Options) => {
    const detail =
      scope === 'ip'
        ? 'Too many requests from this address; try again later.'
        : 'Too many messages to this conversation; try again later.';
    res
      .status(options.statusCode)
      .type('application/problem+json')
      .json(problemBody(429, 'rate_limited', detail, { scope }));
  };
}

/**
 * Per-IP and per-session rate limits on the public widget's requests (in memory, per instance),
 * before auth so a flood costs no token check, validation or turn. The IP is `req.ip` (TRUST_PROXY).
 */
export function publicWidgetLimits(limits: PublicWidgetLimits) {
  const common = { windowMs: 60_000, standardHeaders: 'draft-7', legacyHeaders: false } as const;
  const perIp = rateLimit({ ...common, limit: limits.perIp, handler: tooMany('ip') });
  const perSession = rateLimit({
    ...common,
    limit: limits.perSession,
    handler: tooMany('session'),
    // Only messages that name a session count here; the rest fail validation after this anyway.
    skip: (req) => typeof sessionIdOf(req) !== 'string',
    keyGenerator: (req) => `session:${sessionIdOf(req)}`,
  });
  // Read as the app reads it (types, limit); body-parser skips a body it has parsed, so the
  // app's own parser leaves it as it is.
  const json = express.json({ limit: limits.bodyLimit, type: JSON_MEDIA_TYPES });
  return (app: Express) => {
    app.use((req, res, next) => {
      if (!isPublicWidgetRequest(req)) return next();
      perIp(req, res, next);
    });
    app.post('/chat', (req, res, next) => {
      if (!isPublicWidgetRequest(req)) return next();
      json(req, res, (error?: unknown) => (error ? next(error) : perSession(req, res, next)));
    });
  };
}

function sessionIdOf(req: Request): unknown {
  return (req.body as { session_id?: unknown } | undefined)?.session_id;
}
