import { Counter, Histogram, type Registry } from 'prom-client';
import type { TurnOutcome } from '../chat/run-turn.js';

/** Search latency, answers by `grounded` (citing the help center or not), citations removed. */
export function helpCenterMetrics(registry: Registry | undefined) {
  const registers = registry ? [registry] : [];
  const searches = new Histogram({
    name: 'helpdesk_kb_search_seconds',
    help: 'How long a search_help_center search of the knowledge base took.',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers,
  });
  const answers = new Counter({
    name: 'helpdesk_answers_total',
    help: 'Answers of the agents, by whether they cite a help center article the turn retrieved.',
    labelNames: ['grounded'] as const,
    registers,
  });
  const removed = new Counter({
    name: 'helpdesk_citations_removed_total',
    help: 'Citations removed from answers: articles search_help_center did not return in the turn.',
    registers,
  });
  return {
    /** Times a search. */
    timed: async <T>(search: () => Promise<T>): Promise<T> => {
      const end = searches.startTimer();
      try {
        return await search();
      } finally {
        end();
      }
    },
    observeAnswer: (outcome: TurnOutcome) => {
      answers.inc({ grounded: String(outcome.sources.length > 0) });
      if (outcome.removedCitations.length > 0) removed.inc(outcome.removedCitations.length);
    },
  };
}
