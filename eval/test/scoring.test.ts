import { confusionMatrix, precisionRecall } from '../src/metrics/aggregate.js';
import { matchToolUses } from '../src/metrics/chat-metrics.js';
import { applyGate, tally } from '../src/gate.js';
import { deterministicView, firstDifference, type EvalReport } from '../src/report/report.js';

describe('scoring', () => {
  it('when the expected tools come in order among others, then each is found and its listed args compared', () => {
    const actual = [
      { name: 'search_help_center', args: { query: 'x' } },
      { name: 'lookup_invoice', args: { invoice_id: 'inv-1001', billing_email: 'a@b.c' } },
      { name: 'create_ticket', args: {} },
    ];
    expect(
      matchToolUses(
        [
          { name: 'lookup_invoice', args: { invoice_id: 'INV-1001' } },
          { name: 'create_ticket', args: {} },
        ],
        actual,
      ),
    ).toEqual({ found: 2, argsOk: 2 });
    expect(
      matchToolUses(
        [
          { name: 'create_ticket', args: {} },
          { name: 'lookup_invoice', args: {} },
        ],
        actual,
      ),
    ).toEqual({ found: 1, argsOk: 1 });
    expect(
      matchToolUses([{ name: 'lookup_invoice', args: { invoice_id: 'INV-1002' } }], actual),
    ).toEqual({ found: 1, argsOk: 0 });
  });

  it('when escalations are predicted, then precision and recall count them; nothing predicted is not measured', () => {
    const pr = precisionRecall([
      { expected: true, actual: true },
      { expected: true, actual: false },
      { expected: false, actual: true },
      { expected: false, actual: false },
    ]);
    expect(pr.precision.value).toBe(0.5);
    expect(pr.recall.value).toBe(0.5);
    expect(precisionRecall([{ expected: true, actual: false }]).precision.value).toBeNull();
  });

  it('when categories are confused, then the matrix counts expected rows against actual columns', () => {
    const matrix = confusionMatrix([
      { expected: 'billing', actual: 'billing' },
      { expected: 'billing', actual: 'other' },
      { expected: 'other', actual: null },
    ]);
    expect(matrix.labels).toEqual(['(none)', 'billing', 'other']);
    expect(matrix.counts).toEqual([
      [0, 0, 0],
      [0, 1, 1],
      [1, 0, 0],
    ]);
  });

  it('when a metric is below its min, above its max, unmeasured or missing, then the gate says fail, fail, not measured, fail', () => {
    const gated = applyGate(
      {
        'chat.a': { value: 0.4, n: 10 },
        'chat.b': { value: 2, n: 10 },
        'chat.c': { value: null, n: 0, note: 'why' },
        'chat.d': { value: 0.9, n: 10 },
        'chat.e': { value: 5, n: 10 },
      },
      {
        thresholds: {
          'chat.a': { min: 0.5 },
          'chat.b': { max: 0 },
          'chat.c': { min: 1 },
          'chat.d': { min: 0.5 },
          'chat.gone': { min: 1 },
          'email.x': { min: 1 },
        },
      },
      (name) => name.startsWith('chat.'),
    );
    const verdicts = Object.fromEntries(gated.map((m) => [m.name, m.verdict]));
    expect(verdicts).toEqual({
      'chat.a': 'fail',
      'chat.b': 'fail',
      'chat.c': 'not measured',
      'chat.d': 'pass',
      'chat.e': 'reported',
      'chat.gone': 'fail',
    });
    expect(tally(gated)).toEqual({ passed: 1, failed: 3, notMeasured: 1 });
  });

  it('when two reports differ only in timings, mode and ticket ids, then their deterministic views are equal', () => {
    const base = {
      pipeline_version: 'a',
      mode: 'emulator',
      started_at: '1',
      duration_ms: 5,
      metrics: [
        { name: 'chat.latency_p50_ms', value: 10, n: 1, verdict: 'reported' },
        { name: 'chat.routing_turn_accuracy', value: 1, n: 1, verdict: 'pass' },
      ],
      chat_cases: [
        { id: 'x', turns: [{ outcome: { latency_ms: 3, ticket_id: 'TCK-1', reply: 'hi' } }] },
      ],
      problems: [],
    } as unknown as EvalReport;
    const replay = {
      ...base,
      mode: 'replay',
      started_at: '2',
      metrics: [{ ...base.metrics[0]!, value: 99 }, base.metrics[1]!],
      chat_cases: [
        { id: 'x', turns: [{ outcome: { latency_ms: 9, ticket_id: 'TCK-2', reply: 'hi' } }] },
      ],
    } as unknown as EvalReport;
    expect(firstDifference(deterministicView(base), deterministicView(replay))).toBeNull();
    const other = {
      ...replay,
      chat_cases: [{ id: 'x', turns: [{ outcome: { reply: 'bye' } }] }],
    } as unknown as EvalReport;
    expect(firstDifference(deterministicView(base), deterministicView(other))).toMatch(/reply/);
  });
});
