import type { EmailCase } from '../datasets/schema.js';
import type { EmailOutcome } from '../runners/run-email-case.js';
import { confusionMatrix, ratio, type MetricValue } from './aggregate.js';
import type { KnowledgeBase } from './knowledge-base.js';
import { checkReply, type ReplyChecks } from './reply-checks.js';
import { replyMetrics } from './reply-metrics.js';

export interface EmailCaseResult {
  id: string;
  about: string;
  /** The email as sent (its text, or the raw message). */
  input: string;
  outcome: EmailOutcome;
  expected: { category: string; urgency: string | null; language: string };
  category_ok: boolean;
  urgency_ok: boolean | null;
  checks: ReplyChecks | null;
}

/**
 * The passages a thread's `grounding` names, by slug: `{ articles: [{ slug, passage, title }] }` as
 * email-review gives it (a bare list is read the same way).
 */
export function groundingPassages(grounding: unknown): Map<string, string> | undefined {
  const items = Array.isArray(grounding)
    ? grounding
    : (grounding as { articles?: unknown } | undefined)?.articles;
  if (!Array.isArray(items)) return undefined;
  const passages = new Map<string, string>();
  for (const item of items as Array<Record<string, unknown>>) {
    if (typeof item?.slug !== 'string') continue;
    const text = [item.text, item.passage, item.heading, item.title]
      .filter((v) => typeof v === 'string')
      .join('\n');
    passages.set(item.slug, `${passages.get(item.slug) ?? ''}\n${text}`);
  }
  return passages;
}

export function scoreEmailCases(
  cases: EmailCase[],
  outcomes: EmailOutcome[],
  kb: KnowledgeBase,
  knowledge: { exposed: boolean; note: string },
): {
  metrics: Record<string, MetricValue>;
  rows: EmailCaseResult[];
  confusion: ReturnType<typeof confusionMatrix>;
} {
  const rows = cases.map((testCase, index): EmailCaseResult => {
    const outcome = outcomes[index]!;
    const expected = testCase.expected;
    return {
      id: testCase.id,
      about: testCase.about,
      input: testCase.email?.inbound ?? testCase.raw_mime ?? '',
      outcome,
      expected: {
        category: expected.category,
        urgency: expected.urgency ?? null,
        language: expected.language,
      },
      category_ok: outcome.category === expected.category,
      urgency_ok: expected.urgency ? outcome.urgency === expected.urgency : null,
      checks: outcome.draft
        ? checkReply(outcome.draft, expected, kb, groundingPassages(outcome.grounding))
        : null,
    };
  });
  const withUrgency = rows.filter((row) => row.urgency_ok !== null);
  const drafted = rows.flatMap((row) =>
    row.checks ? [{ checks: row.checks, expectedLanguage: row.expected.language }] : [],
  );
  const metrics: Record<string, MetricValue> = {
    'email.failed_cases': { value: rows.filter((row) => row.outcome.error).length, n: rows.length },
    'email.category_accuracy': ratio(
      rows.filter((row) => row.category_ok).length,
      rows.length,
      'no email cases',
    ),
    'email.urgency_accuracy': ratio(
      withUrgency.filter((row) => row.urgency_ok).length,
      withUrgency.length,
      'no case gives an urgency',
    ),
    ...replyMetrics('email', drafted, knowledge),
  };
  const confusion = confusionMatrix(
    rows.map((row) => ({ expected: row.expected.category, actual: row.outcome.category })),
  );
  return { metrics, rows, confusion };
}
