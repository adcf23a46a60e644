import type { Router } from 'express';
import { openApiDocument } from '@repo/http-kit';
import {
  chatRequestSchema,
  chatResponseSchema,
  sessionParamsSchema,
  sessionResponseSchema,
  turnProblemSchema,
} from './schemas.js';

// `schema: null` on an error answer gives http-kit's shared Problem schema.
const problem = (description: string) => ({ description, schema: null });
const turnProblem = (description: string) => ({ description, schema: turnProblemSchema });

export function helpdeskOpenApi() {
  return openApiDocument({
    title: 'helpdesk',
    version: '0.0.0',
    description:
      'A coordinator agent delegates each chat message to the billing, technical or escalation agent.',
    paths: {
      '/chat': {
        post: {
          summary: 'Send a message; the coordinator routes it to one specialist, which answers.',
          requestBody: chatRequestSchema,
          responses: {
            200: {
              description: 'The reply of the agent that answered.',
              schema: chatResponseSchema,
            },
            400: problem('Invalid body.'),
            401: problem('Missing or wrong bearer token (when API_TOKEN is set).'),
            413: problem('Body too large.'),
            415: problem('Body is not JSON.'),
            429: turnProblem('Too many messages waiting on this session.'),
            502: turnProblem('The model failed (after retries) or the agents produced no reply.'),
            504: turnProblem('The model did not answer in time (after retries).'),
          },
        },
      },
      '/sessions/{session_id}': {
        get: {
          summary: 'The messages of a session so far.',
          params: sessionParamsSchema,
          responses: {
            200: { description: 'The transcript.', schema: sessionResponseSchema },
            400: problem('Invalid session id.'),
            401: problem('Missing or wrong bearer token (when API_TOKEN is set).'),
            404: problem('Unknown, deleted or expired session.'),
          },
        },
        delete: {
          summary: 'Forget a session (idempotent).',
          params: sessionParamsSchema,
          responses: {
            204: { description: 'Deleted, or did not exist.', schema: null },
            400: problem('Invalid session id.'),
            401: problem('Missing or wrong bearer token (when API_TOKEN is set).'),
          },
        },
      },
    },
  });
}

/** GET /openapi.json, built once from the same schemas that validate requests. */
export function addOpenApiRoute(router: Router): void {
  const document = helpdeskOpenApi();
  router.get('/openapi.json', (_req, res) => {
    res.json(document);
  });
}
