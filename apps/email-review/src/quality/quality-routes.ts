import { defineRoute, type Route } from '@repo/http-kit';
import { z } from 'zod';
import { qualityAnswer, qualityAnswerSchema } from './quality-figures.js';
import type { QualityLedger } from './quality-ledger.js';

const qualityQuery = z.object({
  since: z.iso.datetime({ offset: true }).optional().describe('Decisions at or after this time.'),
  category: z.string().max(100).optional().describe('Only threads classified so.'),
});

/** GET /quality: how good the drafts are (the same figures as the /metrics gauges). */
export function qualityRoutes(ledger: QualityLedger): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/quality',
      summary:
        'Draft quality: the share approved unedited, edit distances, decision times and reject reasons (with their threads), overall and by category, model and pipeline version.',
      query: qualityQuery,
      responses: { 200: { description: 'The figures.', schema: qualityAnswerSchema } },
      handler: async ({ query, res }) => {
        res.json(qualityAnswer(await ledger.list(query), query));
      },
    }),
  ];
}
