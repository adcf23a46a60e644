import { Counter, Histogram, type Registry } from 'prom-client';
import type { Grounding } from './grounding.js';

/**
 * `email_review_kb_search_seconds` (retrieval latency), `email_review_drafts_total{grounding}`
 * (model drafts by grounding: the grounded share) and `email_review_citations_removed_total`
 * (citations of articles not retrieved for the draft, removed).
 */
export function helpCenterMetrics(registry: Registry | undefined) {
  const registers = registry ? [registry] : [];
  const searches = new Histogram({
    name: 'email_review_kb_search_seconds',
    help: 'How long retrieving the help center passages for a draft took.',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers,
  });
  const drafts = new Counter({
    name: 'email_review_drafts_total',
    help: 'Model drafts with a help center, by grounding (grounded: cites a retrieved article; none).',
    labelNames: ['grounding'] as const,
    registers,
  });
  const removed = new Counter({
    name: 'email_review_citations_removed_total',
    help: 'Citations removed from drafts: articles not retrieved for the draft.',
    registers,
  });
  return {
    timed: async <T>(search: () => Promise<T>): Promise<T> => {
      const end = searches.startTimer();
      try {
        return await search();
      } finally {
        end();
      }
    },
    observeDraft: (grounding: Grounding) => {
      drafts.inc({ grounding: grounding.status });
      if (grounding.removed_citations.length > 0) removed.inc(grounding.removed_citations.length);
    },
  };
}
