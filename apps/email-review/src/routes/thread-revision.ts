import type { ResponseSpec, RouteSpec } from '@repo/http-kit';
import type { Request, Response } from 'express';
import type { RevisionCondition } from '../operations/status-rules.js';
import type { Thread } from '../threads/thread.js';

/** Request headers a route documents. */
export type RouteHeaders = NonNullable<RouteSpec['headers']>;

export const revisionTag = {
  ETag: { description: 'The thread’s revision, `"<revision>"`: what If-Match names.' },
};

/**
 * Answers with a thread and its revision as ETag. The ETag names the draft the reviewer sees (for
 * If-Match), not the whole answer: the status changes under one revision (approve, reject), so it
 * must never make a conditional GET answer 304. `res.json` would (Express compares If-None-Match
 * with any ETag set), hence the explicit end.
 */
export function sendThread(res: Response, thread: Thread, status = 200): void {
  res
    .status(status)
    .set('ETag', `"${thread.revision}"`)
    .set('Cache-Control', 'no-store')
    .type('json')
    .end(JSON.stringify(thread));
}

const IF_MATCH_TAG = /^\s*"(\d{1,9})"\s*$/;

/**
 * The revisions `If-Match` names. `*` (any) names none to check. Entity tags that are not a
 * revision of ours (weak ones included: If-Match compares strongly) never match: 412.
 */
function ifMatchOf(req: Request): number[] | undefined {
  const header = req.get('If-Match');
  if (header === undefined || header.trim() === '*') return undefined;
  return header
    .split(',')
    .map((tag) => IF_MATCH_TAG.exec(tag)?.[1])
    .filter((revision): revision is string => revision !== undefined)
    .map(Number);
}

/** If-Match and the body's `revision`, whichever the request carries. */
export function revisionCondition(
  req: Request,
  body: { revision?: number } | undefined,
): RevisionCondition {
  return { ifMatch: ifMatchOf(req), revision: body?.revision };
}

/** What edit, approve and reject document about acting on the revision the reviewer saw. */
export const revisionChecked = {
  headers: {
    'If-Match': {
      description:
        'The revision the reviewer saw, as the ETag of GET /threads/{thread_id} (`"3"`): refused with 412 unless it is the current one.',
    },
  },
  responses: {
    409: {
      description:
        'The thread is not in a state that allows this (`thread_not_awaiting_review`), or the body’s `revision` is not the current one (`revision_mismatch`; `revision` in the answer is the current one; the request changed nothing). Approve also answers `revision_mismatch` when the workflow holds a draft the view did not show: the view now shows it, at a new revision.',
    },
    412: {
      description:
        'If-Match names another revision than the current one (`revision_mismatch`; `revision` and the ETag give the current one). Nothing changed.',
      headers: revisionTag,
    },
  },
} satisfies { headers: RouteHeaders; responses: Record<number, ResponseSpec> };
