import type { Logger } from '@repo/http-kit';
import { helpCenterMetrics, openHelpCenter, type HelpCenterSettings } from '@repo/knowledge';
import type pg from 'pg';
import type { Registry } from 'prom-client';
import type { TurnOutcome } from '../chat/run-turn.js';
import type { HelpCenterSearch } from '../tools/search-help-center.js';

export type { HelpCenterSettings } from '@repo/knowledge';

/**
 * The knowledge base the search_help_center tool and the /kb routes share: in the sessions'
 * database (schema KB_SCHEMA, 503 while it is away) or in memory. Its metrics: search latency,
 * answers by `grounded` (citing the help center or not), citations removed.
 */
export function openAgentHelpCenter(options: {
  settings: HelpCenterSettings;
  database?: { pool: pg.Pool } | undefined;
  logger: Logger;
  registry: Registry | undefined;
}) {
  const helpCenter = openHelpCenter(options);
  const metrics = helpCenterMetrics(options.registry, {
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
  const search: HelpCenterSearch = (query) => metrics.timed(() => helpCenter.kb.search(query));
  return {
    ...helpCenter,
    search,
    observeAnswer: (outcome: TurnOutcome) =>
      metrics.observeAnswer(String(outcome.sources.length > 0), outcome.removedCitations.length),
  };
}
