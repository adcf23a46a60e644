import type { Request, RequestHandler, Response } from 'express';
import { Counter, Histogram, Registry } from 'prom-client';
import { collectDefaultMetricsWithoutGc } from '../patches/prom-client-default-metrics-without-gc.js';

/**
 * A registry holding Node's default metrics (all but the GC duration histogram, whose observer
 * cost more than the 3 % the metrics may take: src/patches/); a service adds its own metrics to it.
 */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetricsWithoutGc(registry);
  return registry;
}

/** The route template a response answered for; routes declared with defineRoute set it. */
export function setRouteTemplate(res: Response, template: string): void {
  res.locals.routeTemplate = template;
}

/** The route template a request matched (`/threads/{thread_id}`), or `unmatched`. */
export function routeOf(req: Request, res: Response): string {
  const expressRoute = (req.route as { path?: unknown } | undefined)?.path;
  return (
    (res.locals.routeTemplate as string | undefined) ??
    (typeof expressRoute === 'string' ? req.baseUrl + expressRoute : 'unmatched')
  );
}

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * Counts and times every response by method, route template and status. The route is the
 * template (`/threads/{thread_id}`), never the raw path, so ids don't multiply the series;
 * a path no route matched counts as `unmatched`.
 */
export function httpMetrics(registry: Registry): RequestHandler {
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route template and status.',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to the end of its answer, by method, route template and status.',
    labelNames,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const labels = {
        method: req.method,
        route: routeOf(req, res),
        status: String(res.statusCode),
      };
      requests.inc(labels);
      duration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  };
}

/** GET /metrics in the Prometheus text format. */
export function metricsHandler(registry: Registry): RequestHandler {
  return async (_req, res) => {
    res.type(registry.contentType).send(await registry.metrics());
  };
}
