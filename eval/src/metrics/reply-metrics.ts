import { mean, notMeasured, ratio, type MetricValue } from './aggregate.js';
import type { ReplyChecks } from './reply-checks.js';

/**
 * The reply metrics of one service over its replies. Citation metrics are measured only when the
 * service exposes its knowledge base (`knowledge`: why not, otherwise): without it nothing can be
 * cited, and a zero would say the retrieval failed when it was never asked for.
 */
export function replyMetrics(
  prefix: 'email' | 'chat',
  rows: Array<{ checks: ReplyChecks; expectedLanguage: string }>,
  knowledge: { exposed: boolean; note: string },
): Record<string, MetricValue> {
  const checks = rows.map((row) => row.checks);
  const sum = (pick: (c: ReplyChecks) => number) => checks.reduce((total, c) => total + pick(c), 0);
  const citations = sum((c) => c.cited.length);
  const metrics: Record<string, MetricValue> = {
    [`${prefix}.facts_recall`]: ratio(
      sum((c) => c.facts_found),
      sum((c) => c.facts),
      'no case lists facts',
    ),
    [`${prefix}.forbidden_hits`]: { value: sum((c) => c.forbidden_hits.length), n: checks.length },
    [`${prefix}.language_match`]: ratio(
      rows.filter((row) => row.checks.language === row.expectedLanguage).length,
      rows.length,
      'no replies',
    ),
    [`${prefix}.golden_similarity`]: mean(
      checks.flatMap((c) => (c.similarity === null ? [] : [c.similarity])),
      'no case has a golden reply',
    ),
  };
  if (!knowledge.exposed) {
    for (const name of ['citation_validity', 'citation_recall', 'grounding']) {
      metrics[`${prefix}.${name}`] = notMeasured(knowledge.note);
    }
    return metrics;
  }
  metrics[`${prefix}.citation_validity`] = ratio(
    citations - sum((c) => c.invalid_citations.length),
    citations,
    'no reply cited the help center',
  );
  metrics[`${prefix}.citation_recall`] = ratio(
    sum((c) => c.expected_cites_found),
    sum((c) => c.expected_cites),
    'no case expects a citation',
  );
  metrics[`${prefix}.grounding`] = ratio(
    sum((c) => c.grounded_sentences),
    sum((c) => c.cited_sentences),
    'no sentence cites the help center',
  );
  return metrics;
}
