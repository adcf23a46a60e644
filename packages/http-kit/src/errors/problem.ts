import { STATUS_CODES } from 'node:http';
import type { Response } from 'express';
import { z } from 'zod';

/** The problem-details body every error answer carries (RFC 9457 plus a stable `code`). */
export const problemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.string(),
    request_id: z.string().optional(),
  })
  .catchall(z.unknown());

export type Problem = z.infer<typeof problemSchema>;

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

/** The answer's problem code, for its access-log line: `problem` (empty unless it was a problem). */
export function problemOf(res: unknown): { problem?: string } {
  const problem = (res as Response).locals?.problem as string | undefined;
  return problem === undefined ? {} : { problem };
}

export function sendProblem(res: Response, problem: Problem): void {
  res.locals.problem = problem.code;
  const requestId = res.getHeader('x-request-id');
  if (typeof requestId === 'string') problem.request_id = requestId;
  res.status(problem.status).type('application/problem+json').send(JSON.stringify(problem));
}
