import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { missingValueMessages } from '../errors/validation-messages.js';
import { setRouteTemplate } from '../metrics/http-metrics.js';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** One documented answer. 4xx/5xx answers carry a Problem unless a schema says otherwise. */
export interface ResponseSpec {
  description: string;
  schema?: z.ZodType | null;
  /**
   * Other media types the same status answers with, chosen by the request's `Accept` (e.g.
   * `text/event-stream`): for the document only, the handler picks.
   */
  alternatives?: Record<string, { schema?: z.ZodType; example?: string }>;
  /** Response headers the answer carries (e.g. `ETag`), for the document only. */
  headers?: Record<string, { description: string }>;
}

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteInput<P, Q, B> {
  params: Parsed<P>;
  query: Parsed<Q>;
  body: Parsed<B>;
  /** The request body as sent, when it is of the route's `rawBody` media type (`body` is then undefined). */
  raw?: Buffer | undefined;
  req: Request;
  res: Response;
}

export interface RouteSpec<
  P extends z.ZodObject | undefined = undefined,
  Q extends z.ZodObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
> {
  method: HttpMethod;
  /** OpenAPI style (`/threads/{thread_id}`); Express gets `/threads/:thread_id`. */
  path: string;
  summary: string;
  /** Parsed from `req.params`, then `query` from `req.query`, then `body` from `req.body`. */
  params?: P;
  query?: Q;
  body?: B;
  /**
   * A second accepted body, taken as is (a Buffer in `raw`) rather than parsed by `body`. The app
   * must accept the type (createHttpApp's `rawBodyTypes`).
   */
  rawBody?: { mediaType: string; description: string };
  /** Request headers the handler reads, for the document only (e.g. `Idempotency-Key`). */
  headers?: Record<string, { description: string; required?: boolean }> | undefined;
  responses: Record<number, ResponseSpec>;
  handler: (input: RouteInput<P, Q, B>) => unknown;
}

/** A route declared once: the same object registers it, validates its input and documents it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a list of routes mixes schema types
export type Route = RouteSpec<any, any, any>;

export function defineRoute<
  P extends z.ZodObject | undefined = undefined,
  Q extends z.ZodObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(spec: RouteSpec<P, Q, B>): Route {
  return spec;
}

/** No body, or an empty JSON object: what approve-like actions accept. */
export const emptyBody = z.strictObject({}).optional();

export const expressPath = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');

/** An Express router serving the routes; a ZodError from the parsing leaves as a 400 problem. */
export function routerOf(routes: Route[]): Router {
  const router = Router();
  for (const route of routes) {
    router[route.method](expressPath(route.path), async (req, res) => {
      setRouteTemplate(res, route.path);
      const params = route.params
        ? route.params.parse(req.params, { error: missingValueMessages })
        : undefined;
      const query = route.query
        ? route.query.parse(req.query, { error: missingValueMessages })
        : undefined;
      const raw =
        route.rawBody && req.is(route.rawBody.mediaType) && Buffer.isBuffer(req.body)
          ? req.body
          : undefined;
      const body =
        route.body && !raw
          ? route.body.parse(req.body, { error: missingValueMessages })
          : undefined;
      await route.handler({ params, query, body, raw, req, res });
    });
  }
  return router;
}
