import { normalizedEditDistance } from '../quality/learn-from-decision.js';
import type { Guideline } from './guideline.js';

/** Rules at least this similar (1 − normalized edit distance of their folded text) are one guideline. */
const MERGE_SIMILARITY = 0.8;

const folded = (rule: string) =>
  rule
    .toLowerCase()
    .replace(/[^\p{L}\p{N}<> ]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** The guideline of the same scope that `rule` repeats (the most similar), if any. */
export function similarGuideline(
  sameScope: readonly Guideline[],
  rule: string,
): Guideline | undefined {
  let best: { guideline: Guideline; similarity: number } | undefined;
  for (const guideline of sameScope) {
    const similarity = 1 - normalizedEditDistance(folded(guideline.rule), folded(rule));
    if (similarity >= MERGE_SIMILARITY && similarity > (best?.similarity ?? 0))
      best = { guideline, similarity };
  }
  return best?.guideline;
}

/** Most specific scope first, then the most often taught, then the newest. */
export function draftOrder(scopeRank: (guideline: Guideline) => number) {
  return (a: Guideline, b: Guideline) =>
    scopeRank(a) - scopeRank(b) ||
    b.sources.length - a.sources.length ||
    b.updated_at.localeCompare(a.updated_at);
}
