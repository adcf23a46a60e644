import { defineRoute, type Route } from '@repo/http-kit';
import type { Labels } from '../workflow/classification.js';
import { labelsAnswerSchema } from './thread-schemas.js';

/** GET /labels: the categories and urgencies the classifier chooses from (the support profile's). */
export function labelsRoute(labels: Labels): Route {
  return defineRoute({
    method: 'get',
    path: '/labels',
    summary: 'The categories and urgencies threads are classified with (the support profile’s).',
    responses: {
      200: { description: 'The labels, in order.', schema: labelsAnswerSchema },
      304: { description: 'Unchanged since the ETag in If-None-Match.' },
    },
    handler: ({ res }) => {
      res.json(labels);
    },
  });
}
