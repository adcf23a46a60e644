import { STATUS_CODES } from 'node:http';
import type { Response } from 'express';

/** An RFC 9457 problem-details body, plus a stable machine-readable `code`. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  request_id?: string;
  [extra: string]: unknown;
}

export function problemBody(
  status: number,
  code: string,
  detail: string,
  extra: Record<string, unknown> = {},
): Problem {
  return {
    ...extra,
    type: `urn:problem-type:${code}`,
    title: STATUS_CODES[status] ?? 'Error',
    status,
    detail,
    code,
  };
}

export function sendProblem(res: Response, problem: Problem): void {
  const requestId = res.getHeader('x-request-id');
  if (typeof requestId === 'string') problem.request_id = requestId;
  res.status(problem.status).type('application/problem+json').send(JSON.stringify(problem));
}
