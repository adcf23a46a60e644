import { defineRoute, type Route } from '@repo/http-kit';
import type pg from 'pg';
import type { Registry } from 'prom-client';
import { z } from 'zod';
import { PostgresQualityLedger } from './postgres-quality-ledger.js';
import { qualityAnswer, qualityAnswerSchema } from './quality-figures.js';
import { MemoryQualityLedger } from './quality-ledger.js';
import { qualityMetrics } from './quality-metrics.js';

/** Draft quality: the decisions' ledger (PostgreSQL or memory), GET /quality and the gauges. */
export function openDraftQuality(deps: {
  database?: { pool: pg.Pool; schema: string } | undefined;
  registry?: Registry | undefined;
}) {
  const ledger = deps.database
    ? new PostgresQualityLedger(deps.database.pool, deps.database.schema)
    : new MemoryQualityLedger();
  if (deps.registry) qualityMetrics(deps.registry, ledger);
  // GET /quality: the same figures as the /metrics gauges.
  const routes: Route[] = [
    defineRoute({
      method: 'get',
      path: '/quality',
      summary:
        'Draft quality: the share approved unedited, edit distances, decision times and reject reasons (with their threads), overall and by category, model and pipeline version.',
      query: z.object({
        since: z.iso
          .datetime({ offset: true })
          .optional()
          .describe('Decisions at or after this time.'),
        category: z.string().max(100).optional().describe('Only threads classified so.'),
      }),
      responses: { 200: { description: 'The figures.', schema: qualityAnswerSchema } },
      handler: async ({ query, res }) => {
        res.json(qualityAnswer(await ledger.list(query), query));
      },
    }),
  ];
  return { ledger, routes };
}
