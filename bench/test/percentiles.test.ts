import { percentile, summarize } from '../src/stats/percentiles.js';

describe('percentiles', () => {
  it('when samples are 1..100, then p50 is 50 and p99 is 99 (nearest rank)', () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(sorted, 50)).toBe(50);
    expect(percentile(sorted, 99)).toBe(99);
  });

  it('when there is one sample, then every percentile is that sample', () => {
    expect(summarize([7])).toMatchObject({ count: 1, p50: 7, p99: 7, mean: 7, max: 7 });
  });

  it('when there are no samples, then the percentiles are NaN rather than 0', () => {
    expect(Number.isNaN(summarize([]).p50)).toBe(true);
  });
});
