import { defineRoute, emptyBody, HttpError, type ResponseSpec, type Route } from '@repo/http-kit';
import type { Request } from 'express';
import type { z } from 'zod';
import type { ThreadService } from '../operations/thread-service.js';
import { threadSchema, type Thread } from '../threads/thread.js';
import { parseRawEmail, RAW_EMAIL_MAX_BYTES, type InboundEmail } from '../email/raw-email.js';
import { UNKNOWN_EMAIL } from '../email/thread-email.js';
import {
  approveThreadBody,
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

/** The email a POST /threads carries: a raw message, or JSON fields. */
async function inboundEmailOf(
  body: z.output<typeof createThreadBody> | undefined,
  raw: Buffer | undefined,
): Promise<InboundEmail> {
  if (raw) return parseRawEmail(raw);
  if (!body) throw new HttpError(400, 'invalid_body', 'The body must carry an email.');
  return {
    inbound: body.inbound,
    email: {
      ...UNKNOWN_EMAIL,
      from: body.from ?? null,
      to: body.to ?? null,
      subject: body.subject ?? null,
      message_id: body.message_id ?? null,
      references: body.references ?? [],
    },
  };
}

/** A change to a paused thread: the same parameters and error answers for edit, approve, reject, retry. */
function threadChange<B extends z.ZodType>(spec: {
  action: 'edit' | 'approve' | 'reject' | 'retry' | 'redeliver';
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
      rawBody: {
        mediaType: 'message/rfc822',
        description: `A raw RFC 5322 message (at most ${RAW_EMAIL_MAX_BYTES} bytes): its text part (or HTML as text) is the inbound email; From, To, Subject, Message-ID and References come from its headers.`,
      },
      headers: {
        'Idempotency-Key': {
          description: 'Repeating a request with the same key returns the same thread.',
        },
      },
      responses: {
        201: thread('Created, awaiting review.'),
        200: thread(
          'The thread this Idempotency-Key (or, without one, this Message-ID) already created.',
        ),
        400: {
          description: 'Invalid body or Idempotency-Key, or a raw message with no readable text.',
        },
        422: { description: 'Idempotency-Key already used with a different email.' },
        503: {
          description: 'No lock connection came free in time; try again shortly (Retry-After).',
        },
        502: {
          description:
            'The model failed after retries; the thread is kept as failed (see thread_id).',
        },
      },
      handler: async ({ body, raw, req, res }) => {
        const key = idempotencyKeyOf(req);
        const received = await inboundEmailOf(body, raw);
        const { thread, created } = await threads.createThread(received, key);
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
      summary:
        'Approve the draft: the thread is sent and its reply queued for delivery (both or neither).',
      ok: 'Sent; `delivery.status` is `queued` (a worker delivers it after this answer).',
      body: approveThreadBody,
      responses: {
        422: {
          description:
            'recipient_required: SMTP delivery is configured and the thread has no address to reply to.',
        },
      },
      change: (threadId, approval) => threads.approveThread(threadId, approval ?? {}),
    }),
    threadChange({
      action: 'redeliver',
      summary: 'Queue a failed delivery again (after fixing its cause).',
      ok: 'Queued again.',
      body: emptyBody,
      change: (threadId) => threads.redeliverThread(threadId),
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
