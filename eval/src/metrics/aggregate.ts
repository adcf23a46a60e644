/** A metric's value over the cases, or null with the reason it was not measured. */
export interface MetricValue {
  value: number | null;
  /** Cases (or turns, or items) the value is computed over. */
  n: number;
  note?: string;
}

export const notMeasured = (note: string): MetricValue => ({ value: null, n: 0, note });

/** The share of `hits` among `total`; not measured when there is nothing to count. */
export function ratio(hits: number, total: number, emptyNote: string): MetricValue {
  return total === 0 ? notMeasured(emptyNote) : { value: hits / total, n: total };
}

export function mean(values: number[], emptyNote: string): MetricValue {
  return values.length === 0
    ? notMeasured(emptyNote)
    : { value: values.reduce((a, b) => a + b, 0) / values.length, n: values.length };
}

export function percentile(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Precision and recall of a yes/no prediction. */
export function precisionRecall(pairs: Array<{ expected: boolean; actual: boolean }>): {
  precision: MetricValue;
  recall: MetricValue;
} {
  const tp = pairs.filter((p) => p.expected && p.actual).length;
  const predicted = pairs.filter((p) => p.actual).length;
  const expected = pairs.filter((p) => p.expected).length;
  return {
    precision: ratio(tp, predicted, 'nothing was predicted'),
    recall: ratio(tp, expected, 'no case expects it'),
  };
}

/** Rows: expected label; columns: actual label (null → `(none)`). */
export function confusionMatrix(pairs: Array<{ expected: string; actual: string | null }>): {
  labels: string[];
  counts: number[][];
} {
  const labels = [...new Set(pairs.flatMap((p) => [p.expected, p.actual ?? '(none)']))].sort();
  const counts = labels.map(() => labels.map(() => 0));
  for (const pair of pairs) {
    counts[labels.indexOf(pair.expected)]![labels.indexOf(pair.actual ?? '(none)')]! += 1;
  }
  return { labels, counts };
}
