import { context, trace } from '@opentelemetry/api';
import type { RequestHandler, Response } from 'express';
import { routeOf } from '../metrics/http-metrics.js';

/** The ids of the request's span, for its log lines: `trace_id`, `span_id`. */
export function traceIdsOf(res: unknown): Record<string, string> {
  return ((res as Response).locals?.traceIds as Record<string, string> | undefined) ?? {};
}

/**
 * Joins the request's server span, which the HTTP instrumentation (startTracing) started around
 * the request, to the service: the request's logger (and so every line logged while serving it)
 * gets `trace_id` and `span_id`, the request logger's own line adds traceIdsOf(res), and the span
 * is named after the route template (`GET /threads/{thread_id}`, `http.route`) once it is known.
 * The instrumentation ends the span on the response's `close`, after its `finish`.
 */
export function httpSpans(): RequestHandler {
  return (req, res, next) => {
    const span = trace.getSpan(context.active());
    if (!span) return next();
    const { traceId, spanId } = span.spanContext();
    res.locals.traceIds = { trace_id: traceId, span_id: spanId };
    req.log = req.log.child(res.locals.traceIds as Record<string, string>);
    res.on('finish', () => {
      const route = routeOf(req, res);
      if (route === 'unmatched') return;
      span.setAttribute('http.route', route);
      span.updateName(`${req.method} ${route}`);
    });
    next();
  };
}
