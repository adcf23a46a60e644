import { setTimeout as sleep } from 'node:timers/promises';
import { defineRoute, HttpError, type ResponseSpec, type Route } from '@repo/http-kit';
import type { Request } from 'express';
import type { z } from 'zod';
import type { ThreadService } from '../operations/thread-service.js';
import type { Labels } from '../workflow/classification.js';
import { parseRawEmail, RAW_EMAIL_MAX_BYTES, type InboundEmail } from '../email/raw-email.js';
import { UNKNOWN_EMAIL } from '../email/thread-email.js';
import { createThreadBody, labelledSchemas, threadParams } from './thread-schemas.js';
import { revisionTag, sendThread, threadChangeRoutes } from './thread-change-routes.js';

/** Express answers a GET whose If-None-Match holds the answer's ETag with 304 (browsers send it). */
const notModified: ResponseSpec = { description: 'Unchanged since the ETag in If-None-Match.' };
const threadIdAnswers = {
  400: { description: 'Invalid thread id.' },
  404: { description: 'Unknown thread.' },
};

function idempotencyKeyOf(req: Request): string | undefined {
  const key = req.get('Idempotency-Key');
  if (key !== undefined && !/^[\x21-\x7e]{1,200}$/.test(key))
    throw new HttpError(
      400,
      'invalid_idempotency_key',
      'Idempotency-Key must be 1-200 visible ASCII characters.',
    );
  return key;
}

/** The email a POST /threads carries: a raw message, or JSON fields. */
async function inboundEmailOf(
  body: z.output<typeof createThreadBody>,
  raw: Buffer | undefined,
): Promise<InboundEmail> {
  if (raw) return parseRawEmail(raw);
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

/** RFC 7240 `Prefer: respond-async`: the client does not wait for the draft. */
function prefersAsync(req: Request): boolean {
  return (req.get('Prefer') ?? '')
    .split(',')
    .some((preference) => preference.split(';')[0]!.trim().toLowerCase() === 'respond-async');
}

/** What `promise` settles with within `ms`; undefined when it takes longer (it goes on). */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  const timer = new AbortController();
  const timeout = sleep(ms, undefined, { signal: timer.signal }).catch(() => undefined);
  return Promise.race([promise, timeout]).finally(() => timer.abort());
}

/** The API over the thread service, each route declared once: registered, validated, documented. */
export function threadRoutes(
  threads: ThreadService,
  options: { createWaitMs: number; labels: Labels },
): Route[] {
  const schemas = labelledSchemas(options.labels);
  const thread = (description: string): ResponseSpec => ({
    description,
    schema: schemas.thread,
    headers: revisionTag,
  });
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
        Prefer: {
          description:
            '`respond-async`: answer 202 as soon as the thread is stored, without waiting for the draft.',
        },
      },
      responses: {
        201: thread('Created, awaiting review.'),
        202: thread(
          'Accepted, still `drafting`: asked with `Prefer: respond-async`, or the draft took longer than CREATE_WAIT_MS (default 30 s). The draft goes on; GET the Location until the thread is awaiting review (or failed).',
        ),
        200: thread(
          'The thread this Idempotency-Key (or, without one, this Message-ID) already created.',
        ),
        400: {
          description: 'Invalid body or Idempotency-Key, or a raw message with no readable text.',
        },
        422: { description: 'Idempotency-Key already used with a different email.' },
        503: {
          description:
            'The database (`database_unavailable`) or the model (`llm_unavailable`, the thread kept as failed, see thread_id) is unavailable; try again after Retry-After.',
        },
        502: {
          description:
            'The model failed after retries; the thread is kept as failed (see thread_id).',
        },
      },
      handler: async ({ body, raw, req, res }) => {
        const key = idempotencyKeyOf(req);
        const received = await inboundEmailOf(body, raw);
        const source = raw ? 'mime' : 'json';
        const { thread, created, drafted } = await threads.createThread(received, key, source);
        res.location(`/threads/${thread.thread_id}`);
        if (!drafted) return sendThread(res, thread, created ? 201 : 200);
        if (prefersAsync(req)) {
          res.set('Preference-Applied', 'respond-async');
          return sendThread(res, thread, 202);
        }
        // A slow model answers 202 (the thread goes on drafting), never a gateway's 5xx.
        const done = await within(drafted, options.createWaitMs);
        sendThread(res, done ?? thread, done ? 201 : 202);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/threads',
      summary: 'List threads, newest first.',
      query: schemas.listQuery,
      responses: {
        200: {
          description:
            'One page of threads. Filtered by category or grounding, a page may hold fewer than `limit` threads and still have a `next_cursor`.',
          schema: schemas.threadList,
        },
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
        200: thread('The thread; its ETag is its revision, for If-Match.'),
        ...threadIdAnswers,
      },
      handler: async ({ params, res }) => {
        sendThread(res, await threads.getThread(params.thread_id));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/threads/{thread_id}/history',
      summary:
        'The thread’s history, oldest first: every change, who made it, and its delivery events.',
      params: threadParams,
      responses: {
        200: { description: 'The events, oldest first.', schema: schemas.history },
        304: notModified,
        ...threadIdAnswers,
      },
      handler: async ({ params, res }) => {
        res.json(await threads.getThreadHistory(params.thread_id));
      },
    }),
    ...threadChangeRoutes(threads, thread),
  ];
}
