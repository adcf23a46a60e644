import type { GatedMetric } from '../gate.js';
import type { EvalReport } from './report.js';

/** Metrics that count things (cases, hits, milliseconds, tokens) rather than score them between 0 and 1. */
export const COUNT_METRIC = /(_ms|_hits|failed_|_missing|tokens_)/;

export function formatValue(metric: { name: string; value: number | null }): string {
  if (metric.value === null) return 'not measured';
  if (COUNT_METRIC.test(metric.name)) return String(Math.round(metric.value));
  return metric.value.toFixed(3);
}

function formatThreshold(metric: GatedMetric): string {
  if (!metric.threshold) return '';
  const parts = [];
  if (metric.threshold.min !== undefined) parts.push(`≥ ${metric.threshold.min}`);
  if (metric.threshold.max !== undefined) parts.push(`≤ ${metric.threshold.max}`);
  return parts.join(', ');
}

/** The metric table, as printed to the terminal and put in the Markdown report. */
export function metricTable(metrics: GatedMetric[]): string {
  const rows = metrics.map((m) => [
    m.name,
    formatValue(m),
    String(m.n),
    formatThreshold(m),
    m.verdict,
    m.note ?? '',
  ]);
  const head = ['metric', 'value', 'n', 'threshold', 'result', 'note'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

const escape = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** report.md: the verdict, the metric table, the chart, the confusion matrix and the failing cases. */
export function renderMarkdown(report: EvalReport, chartFile: string): string {
  const out: string[] = [];
  out.push(`# Evaluation — pipeline ${report.pipeline_version} (${report.mode})`, '');
  out.push(
    `Answered by ${report.answered_by}; models as the services asked for them: email-review \`${report.models.emailReview}\`, ` +
      `helpdesk \`${report.models.helpdesk}\`; judge: ${report.models.judge ?? 'none (judge scores not measured)'}. ` +
      `Dataset ${report.dataset_version}, ${report.email_cases.length} email and ${report.chat_cases.length} chat cases, ` +
      `${(report.duration_ms / 1000).toFixed(1)} s, started ${report.started_at}.`,
    '',
  );
  out.push(
    `**${report.passed} passed, ${report.failed} failed** (${report.not_measured} not measured).`,
    '',
  );
  out.push(metricTable(report.metrics), '');
  out.push(`![Scores against their thresholds](${chartFile})`, '');
  if (report.problems.length)
    out.push('## Problems', '', ...report.problems.map((p) => `- ${escape(p)}`), '');
  if (report.confusion) {
    const { labels, counts } = report.confusion;
    out.push('## Email categories: confusion matrix (rows expected, columns actual)', '');
    out.push(
      `| expected \\ actual | ${labels.join(' | ')} |`,
      `| --- | ${labels.map(() => '---:').join(' | ')} |`,
    );
    labels.forEach((label, i) => out.push(`| ${label} | ${counts[i]!.join(' | ')} |`));
    out.push('');
  }
  const emailMisses = report.email_cases.filter(
    (c) =>
      !c.category_ok ||
      c.urgency_ok === false ||
      c.outcome.error ||
      c.checks?.forbidden_hits.length ||
      c.checks?.missing_facts.length,
  );
  if (emailMisses.length) {
    out.push(
      '## Email cases with a miss',
      '',
      '| case | expected | got | missing facts | forbidden | error |',
      '| --- | --- | --- | --- | --- | --- |',
    );
    for (const c of emailMisses) {
      out.push(
        `| ${c.id} | ${c.expected.category}/${c.expected.urgency ?? '–'} | ${c.outcome.category ?? '–'}/${c.outcome.urgency ?? '–'} | ${escape(c.checks?.missing_facts.join('; ') ?? '')} | ${escape(c.checks?.forbidden_hits.join('; ') ?? '')} | ${c.outcome.error ?? ''} |`,
      );
    }
    out.push('');
  }
  const chatMisses = report.chat_cases.flatMap((c) =>
    c.turns
      .map((t, i) => ({ c, t, i }))
      .filter(
        ({ t }) =>
          !t.agent_ok ||
          t.tools_found < t.tools_expected ||
          t.tools_args_ok < t.tools_found ||
          t.outcome.error ||
          t.checks?.missing_facts.length ||
          t.checks?.forbidden_hits.length,
      ),
  );
  const escalationMisses = report.chat_cases.filter((c) => c.escalated !== c.escalation_expected);
  if (chatMisses.length || escalationMisses.length) {
    out.push(
      '## Chat turns with a miss',
      '',
      '| case | turn | expected agent | got | tools called | note |',
      '| --- | --- | --- | --- | --- | --- |',
    );
    for (const { c, t, i } of chatMisses) {
      const note = [
        t.outcome.error,
        t.checks?.missing_facts.length ? `missing: ${t.checks.missing_facts.join('; ')}` : '',
        t.checks?.forbidden_hits.join('; '),
      ]
        .filter(Boolean)
        .join(' ');
      out.push(
        `| ${c.id} | ${i + 1} | ${t.expected_agent} | ${t.outcome.agent ?? '–'} | ${escape(t.outcome.tool_calls.map((call) => call.name).join(', '))} | ${escape(note)} |`,
      );
    }
    for (const c of escalationMisses) {
      out.push(
        `| ${c.id} | all | | | | escalation expected ${c.escalation_expected}, ticket opened ${c.escalated} |`,
      );
    }
    out.push('');
  }
  out.push(
    '## Per case: latency and tokens',
    '',
    '| case | latency (ms) | model calls | prompt tokens | completion tokens |',
    '| --- | ---: | ---: | ---: | ---: |',
  );
  for (const c of report.email_cases) {
    out.push(
      `| email:${c.id} | ${c.outcome.latency_ms} | ${c.calls?.calls ?? 0} | ${c.calls?.prompt_tokens ?? 0} | ${c.calls?.completion_tokens ?? 0} |`,
    );
  }
  for (const c of report.chat_cases) {
    const latency = c.turns.reduce((total, t) => total + t.outcome.latency_ms, 0);
    out.push(
      `| chat:${c.id} | ${latency} | ${c.calls?.calls ?? 0} | ${c.calls?.prompt_tokens ?? 0} | ${c.calls?.completion_tokens ?? 0} |`,
    );
  }
  out.push('');
  return out.join('\n');
}
