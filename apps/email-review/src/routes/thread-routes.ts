import { defineRoute, emptyBody, HttpError, type ResponseSpec, type Route } from '@repo/http-kit';
import type { Request } from 'express';
import type { z } from 'zod';
import type { ThreadService } from '../operations/thread-service.js';
import { threadSchema, type Thread } from '../threads/thread.js';
import {
  createThreadBody,
  editThreadBody,
  idempotencyKeyHeader,
  listThreadsQuery,
  threadListSchema,
  threadParams,
} from './thread-schemas.js';

const thread = (description: string): ResponseSpec => ({ description, schema: threadSchema });
/** Express answers a GET whose If-None-Match holds the answer's ETag with 304 (browsers send it). */
const notModified: ResponseSpec = { description: 'Unchanged since the ETag in If-None-Match.' };

function idempotencyKeyOf(req: Request): string | undefined {
  const header = req.get('Idempotency-Key');
  if (header === undefined) return undefined;
  const parsed = idempotencyKeyHeader.safeParse(header);
  if (!parsed.success)
    throw new HttpError(
      400,
      'invalid_idempotency_key',
      'Idempotency-Key must be 1-200 visible ASCII characters.',
    );
  return parsed.data;
}

/** A change to a paused thread: the same parameters and error answers for edit, approve, reject, retry. */
function threadChange<B extends z.ZodType>(spec: {
  action: 'edit' | 'approve' | 'reject' | 'retry';
  summary: string;
  ok: string;
  body: B;
  responses?: Record<number, ResponseSpec>;
  change: (threadId: string, body: z.output<B>) => Promise<Thread>;
}): Route {
  return defineRoute({
    method: 'post',
    path: `/threads/{thread_id}/${spec.action}`,
    summary: spec.summary,
    params: threadParams,
    body: spec.body,
    responses: {
      200: thread(spec.ok),
      400: { description: 'Invalid thread id or body.' },
      404: { description: 'Unknown thread.' },
      409: {
        description:
          'The thread is not in a state that allows this, or another request is changing it.',
      },
      503: {
        description: 'No lock connection came free in time; try again shortly (Retry-After).',
      },
      ...spec.responses,
    },
    handler: async ({ params, body, res }) => {
      // The body was parsed by `spec.body`; TypeScript cannot resolve that through the generic B.
      res.json(await spec.change(params.thread_id, body as z.output<B>));
    },
  });
}

/** The API over the thread service, each route declared once: registered, validated, documented. */
export function threadRoutes(threads: ThreadService): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/threads',
      summary: 'Classify and draft a reply to an inbound email; the thread pauses for review.',
      body: createThreadBody,
      headers: {
        'Idempotency-Key': {
          description: 'Repeating a request with the same key returns the same thread.',
        },
      },
      responses: {
        201: thread('Created, awaiting review.'),
        200: thread('The thread this Idempotency-Key already created.'),
        400: { description: 'Invalid body or Idempotency-Key.' },
        422: { description: 'Idempotency-Key already used with a different email.' },
        503: {
          description: 'No lock connection came free in time; try again shortly (Retry-After).',
        },
        502: {
          description:
            'The model failed after retries; the thread is kept as failed (see thread_id).',
        },
      },
      handler: async ({ body, req, res }) => {
        const { thread, created } = await threads.createThread(body.inbound, idempotencyKeyOf(req));
        res
          .status(created ? 201 : 200)
          .location(`/threads/${thread.thread_id}`)
          .json(thread);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/threads',
      summary: 'List threads, newest first.',
      query: listThreadsQuery,
      responses: {
        200: { description: 'One page of threads.', schema: threadListSchema },
        304: notModified,
        400: { description: 'Invalid query or cursor.' },
      },
      handler: async ({ query, res }) => {
        res.json(await threads.listThreads(query));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/threads/{thread_id}',
      summary: 'Get a thread.',
      params: threadParams,
      responses: {
        200: thread('The thread.'),
        304: notModified,
        400: { description: 'Invalid thread id.' },
        404: { description: 'Unknown thread.' },
      },
      handler: async ({ params, res }) => {
        res.json(await threads.getThread(params.thread_id));
      },
    }),
    threadChange({
      action: 'edit',
      summary: 'Replace the draft with text, or redraft it with instructions.',
      ok: 'Edited, awaiting review again.',
      body: editThreadBody,
      responses: {
        502: { description: 'The model failed during the redraft; the thread is kept as failed.' },
      },
      change: (threadId, edit) => threads.editThread(threadId, edit),
    }),
    threadChange({
      action: 'approve',
      summary: 'Approve the draft: the workflow resumes and sends it.',
      ok: 'Sent.',
      body: emptyBody,
      change: (threadId) => threads.approveThread(threadId),
    }),
    threadChange({
      action: 'reject',
      summary: 'Reject the draft: the workflow ends without sending.',
      ok: 'Rejected.',
      body: emptyBody,
      change: (threadId) => threads.rejectThread(threadId),
    }),
    threadChange({
      action: 'retry',
      summary: 'Resume a failed thread from its last completed step.',
      ok: 'Resumed.',
      body: emptyBody,
      responses: { 502: { description: 'The model failed again; the thread stays failed.' } },
      change: (threadId) => threads.retryThread(threadId),
    }),
  ];
}
