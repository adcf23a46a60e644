import type { ErrorRequestHandler } from 'express';
import { ZodError } from 'zod';
import { bodyTooLargeDetail } from './body-too-large.js';
import { HttpError } from './http-error.js';
import { problemBody, sendProblem, type Problem } from './problem.js';
import { namesItsField } from './validation-messages.js';

/** body-parser's error types, mapped to the answer a client should get. */
const bodyParserErrors: Record<string, [number, string, string]> = {
  'entity.too.large': [
    413,
    'payload_too_large',
    'The request body is larger than this service accepts.',
  ],
  'entity.parse.failed': [400, 'malformed_json', 'The request body is not valid JSON.'],
  'encoding.unsupported': [
    415,
    'unsupported_encoding',
    'The request body encoding is not supported.',
  ],
  'charset.unsupported': [415, 'unsupported_charset', 'The request body charset is not supported.'],
  'request.aborted': [400, 'request_aborted', 'The request body was not received completely.'],
};

export function zodProblem(error: ZodError): Problem {
  const errors = error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '(body)',
    message: issue.message,
  }));
  const detail = errors
    .map((e) => (namesItsField(e.message) ? e.message : `${e.path}: ${e.message}`))
    .join('; ');
  return problemBody(400, 'validation_failed', detail, { errors });
}

function toProblem(error: unknown): Problem | undefined {
  if (error instanceof HttpError)
    return problemBody(error.status, error.code, error.detail, error.extra);
  if (error instanceof ZodError) return zodProblem(error);
  const { type, status, expose } = (error ?? {}) as {
    type?: unknown;
    status?: unknown;
    expose?: unknown;
  };
  const known = typeof type === 'string' ? bodyParserErrors[type] : undefined;
  if (known && type === 'entity.too.large')
    return problemBody(known[0], known[1], bodyTooLargeDetail(error as object));
  if (known) return problemBody(...known);
  // Other client errors raised by Express and its parsers (http-errors style: a 4xx `status`), such as a
  // path that is not valid percent-encoding or a body whose Content-Encoding does not decode.
  if (typeof status === 'number' && status >= 400 && status < 500 && expose !== false) {
    return problemBody(status, 'bad_request', 'The request could not be understood.');
  }
  return undefined;
}

/**
 * The one error middleware: everything thrown in a request leaves here as problem details, and the
 * request's access-log line carries its `problem` code (problemOf). Unexpected errors get a generic
 * 500 body; the full error goes only to the log, on an error line of its own. So do other 5xx but
 * 503: a 503 is a designed answer ("a dependency is away, come back after Retry-After") whose cause
 * is logged once by whoever detects it, where a line per refused request would flood the log.
 */
export const errorHandler: ErrorRequestHandler = (error, req, res, _next) => {
  if (res.headersSent) {
    req.log.error({ err: error }, 'error after the response started');
    res.destroy();
    return;
  }
  const problem = toProblem(error);
  if (!problem) req.log.error({ err: error, problem: 'internal_error' }, 'unexpected error');
  else if (problem.status >= 500 && problem.status !== 503)
    req.log.error({ err: error, problem: problem.code }, 'request failed');
  if (error instanceof HttpError) res.set(error.headers);
  sendProblem(res, problem ?? internalError());
};

const internalError = () => problemBody(500, 'internal_error', 'An unexpected error occurred.');

/** What the error middleware answers an error with; for a failure after a stream has started. */
export function problemFor(error: unknown): Problem {
  return toProblem(error) ?? internalError();
}
