import { backoffMs } from '../src/retry/backoff.js';

describe('backoffMs', () => {
  const backoff = { firstMs: 100, maxMs: 1_000 };

  test('when tries go on without jitter, then each wait doubles up to the cap', () => {
    expect([1, 2, 3, 4, 5].map((retry) => backoffMs(backoff, retry))).toEqual([
      100, 200, 400, 800, 1_000,
    ]);
  });

  test('when a jitter is given, then each wait is scaled by a random factor between its bounds', () => {
    const jittered = { ...backoff, jitter: [0.5, 1.5] as const };
    expect([1, 2, 3].map((retry) => backoffMs(jittered, retry, () => 0))).toEqual([50, 100, 200]);
    expect([1, 2, 3].map((retry) => backoffMs(jittered, retry, () => 1))).toEqual([150, 300, 600]);
    expect(backoffMs(jittered, 5, () => 0.5)).toBe(1_000);
  });

  test('when the tries run into the thousands, then the wait stays the cap (no overflow)', () => {
    expect(backoffMs(backoff, 5_000)).toBe(1_000);
    expect(backoffMs({ firstMs: 0, maxMs: 1_000 }, 5_000)).toBe(0);
  });
});
