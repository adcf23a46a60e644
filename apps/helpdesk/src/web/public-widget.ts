import express, { type Express, type Request, type Response } from 'express';
import { rateLimit, type Options } from 'express-rate-limit';
import { problemBody } from '@repo/http-kit';

export interface PublicWidgetLimits {
  /** Requests per minute from one IP address to POST /chat and GET /sessions/{id}. */
  perIp: number;
  /** Messages per minute to one session. */
  perSession: number;
  /** The window the limits count in (default one minute); tests shorten it. */
  windowMs?: number;
}

const SESSION_READ = /^\/sessions\/[^/]+$/;

/**
 * What a customer's browser needs without a token when the widget is public: the chat itself and
 * reading its own session's transcript (the page does on reload; the session id, random and kept
 * by the browser, is what grants it). Deleting a session, the document, metrics and A2A keep the token.
 */
export const isPublicWidgetRequest = (req: Request): boolean =>
  (req.method === 'POST' && req.path === '/chat') ||
  ((req.method === 'GET' || req.method === 'HEAD') && SESSION_READ.test(req.path));

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
 * Per-IP and per-session rate limits on what a public widget opens (in memory, per instance), for
 * createHttpApp's `configure`: they run before auth, so a flood costs no token check, no body
 * validation and no turn.
 */
export function publicWidgetLimits(limits: PublicWidgetLimits) {
  const windowMs = limits.windowMs ?? 60_000;
  const common = { windowMs, standardHeaders: 'draft-7', legacyHeaders: false } as const;
  const perIp = rateLimit({ ...common, limit: limits.perIp, handler: tooMany('ip') });
  const perSession = rateLimit({
    ...common,
    limit: limits.perSession,
    handler: tooMany('session'),
    // Only messages that name a session count here; the rest fail validation after this anyway.
    skip: (req) => typeof sessionIdOf(req) !== 'string',
    keyGenerator: (req) => `session:${sessionIdOf(req)}`,
  });
  return (app: Express) => {
    app.use((req, res, next) => {
      if (!isPublicWidgetRequest(req)) return next();
      perIp(req, res, next);
    });
    // Parsed here already so the per-session limit can read the session; body-parser skips a
    // body it has parsed, so the app's own JSON parser leaves it as it is.
    app.post('/chat', express.json({ limit: '64kb' }), perSession);
  };
}

function sessionIdOf(req: Request): unknown {
  return (req.body as { session_id?: unknown } | undefined)?.session_id;
}
