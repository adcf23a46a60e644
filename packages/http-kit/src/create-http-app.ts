import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { Router, type ErrorRequestHandler, type Express, type Request } from 'express';
import type { Registry } from 'prom-client';
import { httpMetrics, metricsHandler } from './metrics/http-metrics.js';
import { openApiDocument } from './openapi.js';
import { routerOf, type Route } from './routes/define-route.js';
import type { ResponseEvent } from './routes/undocumented-responses.js';
import type { LevelWithSilent } from 'pino';
import { pinoHttp } from 'pino-http';
import { errorHandler } from './errors/error-handler.js';
import { problemOf } from './errors/problem.js';
import { healthRoutes, type ReadinessCheck } from './health.js';
import { createLogger, type Logger } from './logger.js';
import { authConfigured, createAuthenticator, type AuthSettings } from './auth/authenticator.js';
import { bearerAuth } from './middleware/bearer-auth.js';
import { methodNotAllowed } from './middleware/method-not-allowed.js';
import { requestIdOf } from './middleware/request-id.js';
import { requireBodyOf } from './middleware/require-json.js';
import { redactUrl } from './redact-url.js';
import type { TrustProxy } from './service-env.js';
import { serializeError } from './logger.js';
import { requestContext } from './request-context.js';
import { httpSpans, traceIdsOf } from './tracing/http-spans.js';

export interface HttpAppOptions {
  /** Service name, used in logs. */
  name: string;
  logger?: Logger;
  /**
   * Who may call: named tokens and/or JWTs. When any is configured, every route but the health
   * routes and `publicPaths` needs `Authorization: Bearer …`, and the request's actor is who it stands for.
   */
  auth?: AuthSettings;
  /** Shorthand for one token whose actor is `reviewer` (the single `API_TOKEN`). */
  apiToken?: string;
  /**
   * The proxies in front of the service whose X-Forwarded-For is believed (TRUST_PROXY, Express's
   * 'trust proxy': a hop count or addresses); `req.ip` is the client's address as they saw it.
   * Default: none, `req.ip` is the connection's.
   */
  trustProxy?: TrustProxy;
  /** Largest accepted JSON body (express size string); larger bodies get 413. */
  bodyLimit?: string;
  /**
   * Media types accepted besides JSON, read as a Buffer (`req.body`, same `bodyLimit`) for the routes
   * that declare them with `rawBody`, e.g. `message/rfc822`.
   */
  rawBodyTypes?: string[];
  /**
   * What the service needs before it serves (its database, its help center's first load) and what
   * it reports (its mailbox): `/readyz` answers each one's state, 503 while one fails.
   */
  readiness?: readonly ReadinessCheck[];
  /** Paths (exact, or prefixes ending in `/`) open without a token, e.g. the static review page. */
  publicPaths?: string[];
  /** Requests open without a token by method as well as path (e.g. a public chat widget's). */
  isPublicRequest?: (req: Request) => boolean;
  /** The service's API, declared with defineRoute: mounted, and documented at GET /openapi.json. */
  api?: { title: string; version: string; description?: string; routes: Route[] };
  /** Routes outside the documented API. */
  routes?: Router;
  /**
   * Answers, in a route's own protocol, a body the parsers refused (e.g. JSON-RPC's parse error
   * for malformed JSON); what it passes on with `next(error)` gets the problem details.
   */
  bodyErrorHandler?: ErrorRequestHandler;
  /**
   * Serve GET /metrics from this registry and count every request in it. Behind the token like the
   * API, unless `public` (a scraper inside the cluster, e.g.).
   */
  metrics?: { registry: Registry; public?: boolean };
  /**
   * The request's server span (the HTTP instrumentation startTracing applies) named after its
   * route template, its trace id in each log line of the request. Off: no middleware at all.
   */
  tracing?: boolean;
  /** Called for every finished response (tests use it to check the document lists every answer). */
  onResponse?: (event: ResponseEvent) => void;
  /** Mounted before authentication and body parsing, e.g. static assets or security headers. */
  configure?: (app: Express) => void;
}

const HEALTH_PATHS = ['/healthz', '/readyz'];
/** The media types read as JSON bodies (a middleware that reads a body first must read the same). */
export const JSON_MEDIA_TYPES = ['application/json', 'application/*+json'];
/** The actor of a request to a service that needs no token. */
const ANONYMOUS = 'anonymous';
/** The actor of the single `API_TOKEN`. */
export const API_TOKEN_ACTOR = 'reviewer';

function authSettingsOf(options: HttpAppOptions): AuthSettings {
  const tokens = [...(options.auth?.tokens ?? [])];
  if (options.apiToken) tokens.push({ name: API_TOKEN_ACTOR, token: options.apiToken });
  return { ...options.auth, tokens };
}
/** Polled by machines: answering them is not worth a log line each. */
const QUIET_PATHS = [...HEALTH_PATHS, '/metrics'];

function openPathMatcher(publicPaths: string[]): (path: string) => boolean {
  const paths = [...HEALTH_PATHS, ...publicPaths];
  return (path) =>
    paths.some((open) => (open.endsWith('/') ? path.startsWith(open) : path === open));
}

/** An Express 5 app with the plumbing every service of this project shares. Never listens. */
export function createHttpApp(options: HttpAppOptions): Express {
  const logger = options.logger ?? createLogger({ name: options.name });
  const app = express();
  app.disable('x-powered-by');
  if (options.trustProxy !== undefined) app.set('trust proxy', options.trustProxy);
  // No answer of these services is meant to be sniffed into another type (a JSON body as HTML).
  app.use((_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  });
  const { onResponse } = options;
  if (onResponse) {
    app.use((req, res, next) => {
      const { method, path } = req;
      res.on('finish', () => onResponse({ method, path, status: res.statusCode }));
      next();
    });
  }

  app.use(
    pinoHttp<IncomingMessage, ServerResponse, never>({
      logger,
      // The access line: its logger is bound before httpSpans runs, so the trace ids join it here,
      // and a problem answer's code (the error handler writes no line of its own for it).
      customSuccessObject: (_req, res, value) => ({
        ...value,
        ...traceIdsOf(res),
        ...problemOf(res),
      }),
      customErrorObject: (_req, res, _error, value) => accessLineOfError(res, value),
      genReqId: (req, res) => {
        const id = requestIdOf(req);
        res.setHeader('x-request-id', id);
        return id;
      },
      customAttributeKeys: { reqId: 'request_id' },
      autoLogging: { ignore: (req) => QUIET_PATHS.includes(req.url ?? '') },
      customLogLevel: accessLogLevel,
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({
          method: req.method,
          url: redactUrl(req.url),
        }),
        res: (res: { statusCode: number }) => ({ status: res.statusCode }),
        // pino-http's children would otherwise log errors with its own serializer, row data included.
        err: serializeError,
      },
    }),
  );
  if (options.tracing) app.use(httpSpans());
  app.use((req, _res, next) => {
    requestContext.run({ requestId: String(req.id), log: req.log, actor: ANONYMOUS }, next);
  });

  const { metrics } = options;
  if (metrics) app.use(httpMetrics(metrics.registry));
  const health = healthRoutes(options.readiness);
  app.use(health);
  const metricsRoute = metrics && Router().get('/metrics', metricsHandler(metrics.registry));
  if (metricsRoute && metrics.public) app.use(metricsRoute);
  options.configure?.(app);
  const auth = authSettingsOf(options);
  if (authConfigured(auth))
    app.use(
      bearerAuth(
        createAuthenticator(auth),
        openPathMatcher(options.publicPaths ?? []),
        options.isPublicRequest,
      ),
    );
  const rawBodyTypes = options.rawBodyTypes ?? [];
  app.use(requireBodyOf(rawBodyTypes));
  app.use(
    express.json({
      limit: options.bodyLimit ?? '1mb',
      type: JSON_MEDIA_TYPES,
    }),
  );
  if (rawBodyTypes.length > 0)
    app.use(express.raw({ limit: options.bodyLimit ?? '1mb', type: rawBodyTypes }));
  if (options.bodyErrorHandler) app.use(options.bodyErrorHandler);
  if (metricsRoute && !metrics.public) app.use(metricsRoute);
  const routers = [health, ...(options.api ? [apiRouter(options.api, authConfigured(auth))] : [])];
  if (options.routes) routers.push(options.routes);
  for (const router of routers.slice(1)) app.use(router);
  if (metricsRoute) routers.push(metricsRoute);
  app.use(methodNotAllowed(routers));
  app.use(errorHandler);
  return app;
}

/** What a browser fetches to show a page: the page itself, its scripts, styles, images and fonts. */
const PAGE_ASSET_TYPE = /^(text\/(html|css|javascript)|application\/javascript|image\/|font\/)/;

/**
 * The level of a request's access line: info, except a page or one of its assets served well, at
 * debug (opening the inbox once fetches a dozen of them; nobody reads those lines), and a 304 (a
 * reload revalidating them, or a conditional GET that found nothing new).
 */
function accessLogLevel(_req: IncomingMessage, res: ServerResponse): LevelWithSilent {
  if (res.statusCode === 304) return 'debug';
  const type = String(res.getHeader('content-type') ?? '');
  return res.statusCode < 400 && PAGE_ASSET_TYPE.test(type) ? 'debug' : 'info';
}

/**
 * The access line of a 5xx answer. pino-http adds an `err` of its own making ("failed with status
 * code 503", with its stack) when the response is a 5xx without an error: a problem answer's code
 * says more, and its cause, when it needs one, is on the error handler's line.
 */
function accessLineOfError(res: ServerResponse, value: Record<string, unknown>): object {
  const problem = problemOf(res);
  const line: Record<string, unknown> = { ...value, ...traceIdsOf(res), ...problem };
  if (problem.problem) delete line.err;
  return line;
}

/** The API's routes and GET /openapi.json, built once from the same declarations. */
function apiRouter(api: NonNullable<HttpAppOptions['api']>, auth: boolean): Router {
  const router = routerOf(api.routes);
  const document = openApiDocument({ ...api, auth });
  router.get('/openapi.json', (_req, res) => {
    res.json(document);
  });
  return router;
}
