import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { RequestHandler, Response } from 'express';

/** The ids of the request's span, for its log lines: `trace_id`, `span_id`. */
export function traceIdsOf(res: unknown): Record<string, string> {
  return ((res as Response).locals?.traceIds as Record<string, string> | undefined) ?? {};
}
import { routeOf } from '../metrics/http-metrics.js';

/**
 * One server span per request, the root of the request's trace (or a child of the caller's, from
 * its `traceparent`), named after the route template once it is known; everything the request
 * does runs in its context. Mounted after the request logger: the request's logger (and so every
 * line logged while serving it) gets `trace_id` and `span_id`, and the request logger's own line
 * adds traceIdsOf(res).
 */
export function httpSpans(): RequestHandler {
  const tracer = trace.getTracer('@repo/http-kit');
  return (req, res, next) => {
    const parent = propagation.extract(context.active(), req.headers);
    const span = tracer.startSpan(
      req.method,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method } },
      parent,
    );
    const { traceId, spanId } = span.spanContext();
    res.locals.traceIds = { trace_id: traceId, span_id: spanId };
    req.log = req.log.child(res.locals.traceIds as Record<string, string>);
    res.on('finish', () => {
      const route = routeOf(req, res);
      span.updateName(`${req.method} ${route}`);
      span.setAttributes({ 'http.route': route, 'http.response.status_code': res.statusCode });
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    context.with(trace.setSpan(parent, span), next);
  };
}
