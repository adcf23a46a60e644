import { observabilitySection, observabilityTargets } from '../src/report/observability-section.js';
import type { ObservabilityResult } from '../src/scenarios/results.js';

const result = (metrics: number[]): ObservabilityResult => ({
  scenario: 8,
  concurrency: 8,
  lifecycles: 300,
  rounds: { off: [100, 104, 98], metrics, tracing: [80, 82, 81] },
  spansExported: 12_000,
});

describe('scenario 8 in the report', () => {
  test('when metrics cost less than 3 % of both off (medians), then the target is met', () => {
    expect(observabilityTargets(result([98, 99, 101]))).toEqual([
      expect.objectContaining({
        met: true,
        measured: expect.stringContaining('99.0 % of both off'),
      }),
    ]);
  });

  test('when metrics cost more than 3 %, then the target is missed with the shortfall', () => {
    expect(observabilityTargets(result([95, 96, 94]))).toEqual([
      expect.objectContaining({
        met: false,
        shortfall: '2.0 percentage points below 97 %',
      }),
    ]);
  });

  test('when laid out, then tracing is in the table against both off, without a target of its own', () => {
    const section = observabilitySection(result([98, 99, 101]));
    expect(section.tables[0]!.rows.at(-1)).toEqual([
      'metrics and tracing on (OTLP/HTTP export)',
      80,
      82,
      81,
      81,
      expect.closeTo(81, 6),
    ]);
    expect(section.targets).toHaveLength(1);
  });
});
