import { defineRoute, emptyBody, type ResponseSpec, type Route } from '@repo/http-kit';
import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { RevisionCondition } from '../operations/decide-thread.js';
import type { ThreadService } from '../operations/thread-service.js';
import type { Thread } from '../threads/thread.js';
import {
  approveThreadBody,
  editThreadBody,
  redeliverThreadBody,
  rejectThreadBody,
  threadParams,
} from './thread-schemas.js';

export const revisionTag = {
  ETag: { description: 'The thread’s revision, `"<revision>"`: what If-Match names.' },
};

/**
 * Answers with a thread, its revision as ETag: the draft the reviewer sees (for If-Match), not the
 * whole answer (approve and reject keep the revision), so never a 304, which `res.json` would give.
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
 * The revision the reviewer saw: the body's `revision`, and the revisions `If-Match` names. `*`
 * (any) names none to check. Entity tags that are not a revision of ours (weak ones included:
 * If-Match compares strongly) never match: 412.
 */
function revisionCondition(
  req: Request,
  body: { revision?: number } | undefined,
): RevisionCondition {
  const revision = body?.revision;
  const header = req.get('If-Match');
  if (header === undefined || header.trim() === '*') return { ifMatch: undefined, revision };
  const ifMatch = header
    .split(',')
    .map((tag) => IF_MATCH_TAG.exec(tag)?.[1])
    .filter((tag): tag is string => tag !== undefined)
    .map(Number);
  return { ifMatch, revision };
}

/** What edit, approve and reject document about acting on the revision the reviewer saw. */
const ifMatchHeader = {
  'If-Match': {
    description:
      'The revision the reviewer saw, as the ETag of GET /threads/{thread_id} (`"3"`): refused with 412 unless it is the current one.',
  },
};
const revisionAnswers: Record<number, ResponseSpec> = {
  409: {
    description:
      'The thread is not in a state that allows this (`thread_not_awaiting_review`), or the body’s `revision` is not the current one (`revision_mismatch`; `revision` in the answer is the current one; the request changed nothing). Approve also answers `revision_mismatch` when the workflow holds a draft the view did not show: the view now shows it, at a new revision.',
  },
  412: {
    description:
      'If-Match names another revision than the current one (`revision_mismatch`; `revision` and the ETag give the current one). Nothing changed.',
    headers: revisionTag,
  },
};

/** A change to a thread: the same parameters and error answers for each. */
function threadChange<B extends z.ZodType>(
  thread: (description: string) => ResponseSpec,
  spec: {
    action: 'edit' | 'approve' | 'reject' | 'retry' | 'redeliver';
    summary: string;
    ok: string;
    body: B;
    /** Documents If-Match and its answers: the change acts only on the revision the reviewer saw. */
    revisionChecked?: boolean;
    responses?: Record<number, ResponseSpec>;
    change: (threadId: string, body: z.output<B>, condition: RevisionCondition) => Promise<Thread>;
  },
): Route {
  return defineRoute({
    method: 'post',
    path: `/threads/{thread_id}/${spec.action}`,
    summary: spec.summary,
    params: threadParams,
    body: spec.body,
    headers: spec.revisionChecked ? ifMatchHeader : undefined,
    responses: {
      200: thread(spec.ok),
      400: { description: 'Invalid thread id or body.' },
      404: { description: 'Unknown thread.' },
      409: {
        description:
          'The thread is not in a state that allows this (`thread_not_awaiting_review`, `thread_not_retryable`): e.g. another request changed it first.',
      },
      503: {
        description:
          'The database (`database_unavailable`) or, for a step that calls it, the model (`llm_unavailable`, the thread kept as failed) is unavailable; try again after Retry-After.',
      },
      ...(spec.revisionChecked ? revisionAnswers : {}),
      ...spec.responses,
    },
    handler: async ({ params, body, req, res }) => {
      // The body was parsed by `spec.body`; TypeScript cannot resolve that through the generic B.
      const parsed = body as z.output<B>;
      const condition = revisionCondition(req, parsed as { revision?: number } | undefined);
      sendThread(res, await spec.change(params.thread_id, parsed, condition));
    },
  });
}

/** The changes to a thread (edit, approve, redeliver, reject, retry); `thread` documents the answer. */
export function threadChangeRoutes(
  threads: ThreadService,
  thread: (description: string) => ResponseSpec,
): Route[] {
  return [
    threadChange(thread, {
      action: 'edit',
      summary: 'Replace the draft with text, or redraft it with instructions.',
      ok: 'Edited, awaiting review again.',
      body: editThreadBody,
      revisionChecked: true,
      responses: {
        502: { description: 'The model failed during the redraft; the thread is kept as failed.' },
      },
      change: threads.editThread,
    }),
    threadChange(thread, {
      action: 'approve',
      summary:
        'Approve the draft: the thread is sent and its reply queued for delivery (both or neither).',
      ok: 'Sent; `delivery.status` is `queued` (a worker delivers it after this answer), or `no_recipient` when there is no address to reply to (nothing is sent until redeliver names one).',
      body: approveThreadBody,
      revisionChecked: true,
      change: threads.approveThread,
    }),
    threadChange(thread, {
      action: 'redeliver',
      summary:
        'Queue a failed or recipient-less (`no_recipient`) delivery again, optionally to another address.',
      ok: 'Queued again.',
      body: redeliverThreadBody,
      responses: {
        422: {
          description:
            'recipient_required: the delivery has no recipient (`no_recipient`) and the body named no `to`.',
        },
      },
      change: (threadId, body) => threads.redeliverThread(threadId, body?.to),
    }),
    threadChange(thread, {
      action: 'reject',
      summary: 'Reject the draft: the workflow ends without sending.',
      ok: 'Rejected.',
      body: rejectThreadBody,
      revisionChecked: true,
      change: threads.rejectThread,
    }),
    threadChange(thread, {
      action: 'retry',
      summary: 'Resume a failed thread from its last completed step.',
      ok: 'Resumed.',
      body: emptyBody,
      responses: { 502: { description: 'The model failed again; the thread stays failed.' } },
      change: threads.retryThread,
    }),
  ];
}
