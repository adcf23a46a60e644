/** Nearest-rank percentile of already sorted samples; NaN when there are none. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? Number.NaN;
}

export interface Summary {
  count: number;
  p50: number;
  p99: number;
  mean: number;
  max: number;
}

/** Arithmetic mean; NaN when there are no samples. */
export function mean(samples: readonly number[]): number {
  return samples.length ? samples.reduce((total, x) => total + x, 0) / samples.length : Number.NaN;
}

export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    mean: mean(sorted),
    max: sorted.length ? (sorted[sorted.length - 1] ?? Number.NaN) : Number.NaN,
  };
}

export function median(samples: readonly number[]): number {
  return percentile(
    [...samples].sort((a, b) => a - b),
    50,
  );
}

/** a ÷ b; NaN when b is not positive (a rate that was never measured). */
export function ratio(a: number, b: number): number {
  return b > 0 ? a / b : Number.NaN;
}
