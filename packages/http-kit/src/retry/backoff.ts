/** A doubling wait between tries: `firstMs`, then twice that, and so on up to `maxMs`. */
export interface Backoff {
  firstMs: number;
  maxMs: number;
  /**
   * Each wait is multiplied by a random factor between these two (default [1, 1]: none), so that
   * callers failing together do not all try again at the same moment.
   */
  jitter?: readonly [number, number];
}

/** The wait before try number `retry` (1 for the first retry), in whole milliseconds. */
export function backoffMs(backoff: Backoff, retry: number, random: () => number = Math.random) {
  // The exponent's bound keeps a zero `firstMs` from meeting an infinite doubling (NaN).
  const doubled = Math.min(backoff.maxMs, backoff.firstMs * 2 ** Math.min(retry - 1, 30));
  const [low, high] = backoff.jitter ?? [1, 1];
  return Math.round(doubled * (low + (high - low) * random()));
}
