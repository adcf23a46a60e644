import type { GatedMetric } from '../src/gate.js';
import { renderChart } from '../src/report/chart.js';
import { metricTable, renderMarkdown } from '../src/report/markdown.js';
import type { EvalReport } from '../src/report/report.js';

const metrics: GatedMetric[] = [
  {
    name: 'email.category_accuracy',
    value: 0.634,
    n: 41,
    threshold: { min: 0.7 },
    verdict: 'fail',
  },
  {
    name: 'chat.citation_recall',
    value: null,
    n: 0,
    threshold: { min: 0.15 },
    verdict: 'not measured',
    note: 'helpdesk exposes no help center',
  },
  { name: 'chat.forbidden_hits', value: 0, n: 34, threshold: { max: 0 }, verdict: 'pass' },
  { name: 'chat.latency_p50_ms', value: 107.4, n: 34, verdict: 'reported' },
];

const report = {
  pipeline_version: 'abc123def456',
  mode: 'emulator',
  cassette: null,
  models: { emailReview: 'gpt-4.1-mini', helpdesk: 'gemini-2.5-flash', judge: null },
  answered_by: 'llm-emulator',
  dataset_version: 'feaea27d3fae',
  started_at: '2026-11-27T08:00:00.000Z',
  duration_ms: 7000,
  metrics,
  confusion: {
    labels: ['billing', 'other'],
    counts: [
      [1, 1],
      [0, 2],
    ],
  },
  email_cases: [
    {
      id: 'double-charge',
      about: 'a duplicate charge',
      input: 'Charged twice',
      outcome: {
        id: 'double-charge',
        status: 'awaiting_review',
        category: 'other',
        urgency: 'low',
        draft: 'Hi',
        grounding: undefined,
        error: null,
        latency_ms: 120,
      },
      expected: { category: 'billing', urgency: null, language: 'en' },
      category_ok: false,
      urgency_ok: null,
      checks: null,
      calls: { calls: 2, prompt_tokens: 600, completion_tokens: 90, misses: [] },
    },
  ],
  chat_cases: [],
  problems: ['replay: case chat:x made 1 request(s) the cassette does not have'],
  passed: 1,
  failed: 1,
  not_measured: 1,
} as unknown as EvalReport;

describe('report rendering', () => {
  it('when metrics are tabled, then each shows its value, threshold and verdict; counts as integers', () => {
    const table = metricTable(metrics);
    expect(table).toMatch(/\| email\.category_accuracy +\| 0\.634 +\| 41 +\| ≥ 0\.7 +\| fail /);
    expect(table).toMatch(
      /\| chat\.citation_recall +\| not measured .*helpdesk exposes no help center/,
    );
    expect(table).toMatch(/\| chat\.forbidden_hits +\| 0 +\| 34 +\| ≤ 0 +\| pass /);
    expect(table).toMatch(/\| chat\.latency_p50_ms +\| 107 +\|/);
  });

  it('when a report is rendered, then it names who answered, its counts, problems, confusion matrix, misses and per-case cost', () => {
    const markdown = renderMarkdown(report, 'chart-emulator.svg');
    expect(markdown).toContain('# Evaluation — pipeline abc123def456 (emulator)');
    expect(markdown).toContain('Answered by llm-emulator');
    expect(markdown).toContain('**1 passed, 1 failed** (1 not measured)');
    expect(markdown).toContain('![Scores against their thresholds](chart-emulator.svg)');
    expect(markdown).toContain('- replay: case chat:x made 1 request(s)');
    expect(markdown).toContain('| billing | 1 | 1 |');
    expect(markdown).toContain('| double-charge | billing/– | other/low |');
    expect(markdown).toContain('| email:double-charge | 120 | 2 | 600 | 90 |');
  });

  it('when the chart is drawn, then each 0–1 score has a bar coloured by verdict and its threshold tick; counts and unmeasured ones none', () => {
    const svg = renderChart(metrics);
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('>email.category_accuracy</text>');
    expect(svg).toContain('fill="#d9534f"');
    expect(svg).toMatch(/<line x1="534"/);
    expect(svg).not.toContain('chat.forbidden_hits');
    expect(svg).not.toContain('chat.citation_recall');
  });
});
