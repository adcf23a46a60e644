import { openApiDocument, type OperationSpec } from '@repo/http-kit';
import { threadSchema } from '../threads/thread.js';
import {
  createThreadBody,
  editThreadBody,
  listThreadsQuery,
  threadListSchema,
  threadParams,
} from './thread-schemas.js';

/** `schema: null` on an error answer: http-kit points it at the shared Problem schema. */
const problem = (description: string) => ({ description, schema: null });
const thread = (description: string) => ({ description, schema: threadSchema });

/** A change to a paused thread: same parameters and error answers for edit, approve, reject, retry. */
function threadChange(
  summary: string,
  ok: string,
  extra: Partial<OperationSpec> = {},
): OperationSpec {
  return {
    summary,
    params: threadParams,
    ...extra,
    responses: {
      200: thread(ok),
      400: problem('Invalid thread id or body.'),
      404: problem('Unknown thread.'),
      409: problem(
        'The thread is not in a state that allows this, or another request is changing it.',
      ),
      503: problem('No lock connection came free in time; try again shortly (Retry-After).'),
      ...extra.responses,
    },
  };
}

/**
 * The OpenAPI 3.1 document, built from the zod schemas the routes validate with. With `auth`, every
 * operation in it needs the bearer token (only the health routes, which it does not list, are open).
 */
export function emailReviewOpenApi(options: { auth: boolean }) {
  const document = openApiDocument({
    title: 'email-review',
    version: '1.0.0',
    description:
      'Drafts replies to inbound emails with an LLM and sends them only after a human approves.',
    paths: {
      '/threads': {
        post: {
          summary: 'Classify and draft a reply to an inbound email; the thread pauses for review.',
          requestBody: createThreadBody,
          headers: {
            'Idempotency-Key': {
              description: 'Repeating a request with the same key returns the same thread.',
            },
          },
          responses: {
            201: thread('Created, awaiting review.'),
            200: thread('The thread this Idempotency-Key already created.'),
            400: problem('Invalid body.'),
            413: problem('Body too large.'),
            415: problem('Body is not JSON.'),
            422: problem('Idempotency-Key already used with a different email.'),
            502: problem(
              'The model failed after retries; the thread is kept as failed (see thread_id).',
            ),
          },
        },
        get: {
          summary: 'List threads, newest first.',
          query: listThreadsQuery,
          responses: {
            200: { description: 'One page of threads.', schema: threadListSchema },
            400: problem('Invalid query.'),
          },
        },
      },
      '/threads/{thread_id}': {
        get: {
          summary: 'Get a thread.',
          params: threadParams,
          responses: {
            200: thread('The thread.'),
            400: problem('Invalid thread id.'),
            404: problem('Unknown thread.'),
          },
        },
      },
      '/threads/{thread_id}/edit': {
        post: threadChange(
          'Replace the draft with text, or redraft it with instructions.',
          'Edited, awaiting review again.',
          {
            requestBody: editThreadBody,
            responses: {
              502: problem('The model failed during the redraft; the thread is kept as failed.'),
            },
          },
        ),
      },
      '/threads/{thread_id}/approve': {
        post: threadChange('Approve the draft: the workflow resumes and sends it.', 'Sent.'),
      },
      '/threads/{thread_id}/reject': {
        post: threadChange('Reject the draft: the workflow ends without sending.', 'Rejected.'),
      },
      '/threads/{thread_id}/retry': {
        post: threadChange('Resume a failed thread from its last completed step.', 'Resumed.', {
          responses: { 502: problem('The model failed again; the thread stays failed.') },
        }),
      },
    },
  });
  return options.auth ? { ...document, security: [{ bearer: [] }] } : document;
}
