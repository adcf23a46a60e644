import { helpCenterMetrics as knowledgeMetrics } from '@repo/knowledge';
import type { Registry } from 'prom-client';
import type { TurnOutcome } from '../chat/run-turn.js';

/** Search latency, answers by `grounded` (citing the help center or not), citations removed. */
export function helpCenterMetrics(registry: Registry | undefined) {
  const metrics = knowledgeMetrics(registry, {
    searchSeconds: {
      name: 'helpdesk_kb_search_seconds',
      help: 'How long a search_help_center search of the knowledge base took.',
    },
    answers: {
      name: 'helpdesk_answers_total',
      help: 'Answers of the agents, by whether they cite a help center article the turn retrieved.',
      label: 'grounded',
    },
    citationsRemoved: {
      name: 'helpdesk_citations_removed_total',
      help: 'Citations removed from answers: articles search_help_center did not return in the turn.',
    },
  });
  return {
    timed: metrics.timed,
    observeAnswer: (outcome: TurnOutcome) =>
      metrics.observeAnswer(String(outcome.sources.length > 0), outcome.removedCitations.length),
  };
}
