import { randomUUID } from 'node:crypto';
import type { Guideline, GuidelineScope, GuidelineSource, ScopeKind } from './guideline.js';
import { normalizedEditDistance } from '../quality/learn-from-decision.js';

/** A rule one derivation learned, before it is merged or added. */
export type LearnedRule = Pick<Guideline, 'rule' | 'scope'>;

/** A reviewer's change to a guideline (PATCH /guidelines/{id}). */
export type GuidelineChange = Partial<Pick<Guideline, 'rule' | 'enabled'>>;

export interface GuidelineFilter {
  kind?: ScopeKind | undefined;
  value?: string | undefined;
}

/** The guidelines reviewers taught, kept apart from the threads: retention keeps what was learned. */
export interface GuidelineStore {
  /** The enabled guidelines of these scopes, most specific first, then most taught, then newest. */
  forDraft(scopes: readonly GuidelineScope[], limit: number): Promise<Guideline[]>;
  /** Newest first. */
  list(filter: GuidelineFilter): Promise<Guideline[]>;
  update(id: string, change: GuidelineChange, at: string): Promise<Guideline | undefined>;
  delete(id: string): Promise<boolean>;
  /**
   * Records what derivation `jobId` learned: each rule joins a similar guideline of its scope or
   * becomes a new one. Once per job: a rerun after the commit changes nothing and returns [].
   */
  learn(
    jobId: string,
    rules: readonly LearnedRule[],
    source: GuidelineSource,
    at: string,
  ): Promise<Guideline[]>;
}

/** What `learned` makes of its scope's guidelines: the most similar with `source` added, or a new one. */
export function learnedGuideline(
  sameScope: readonly Guideline[],
  learned: LearnedRule,
  source: GuidelineSource,
  at: string,
): Guideline {
  const similar = similarGuideline(sameScope, learned.rule);
  if (similar) return { ...similar, sources: [...similar.sources, source], updated_at: at };
  const fresh = { id: randomUUID(), rule: learned.rule, scope: learned.scope, enabled: true };
  return { ...fresh, sources: [source], created_at: at, updated_at: at };
}

/** Rules at least this similar (1 − normalized edit distance of their folded text) are one guideline. */
const MERGE_SIMILARITY = 0.8;

const folded = (rule: string) =>
  rule
    .toLowerCase()
    .replace(/[^\p{L}\p{N}<> ]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** The guideline of the same scope that `rule` repeats (the most similar), if any. */
function similarGuideline(sameScope: readonly Guideline[], rule: string): Guideline | undefined {
  let best: { guideline: Guideline; similarity: number } | undefined;
  for (const guideline of sameScope) {
    const similarity = 1 - normalizedEditDistance(folded(guideline.rule), folded(rule));
    if (similarity >= MERGE_SIMILARITY && similarity > (best?.similarity ?? 0))
      best = { guideline, similarity };
  }
  return best?.guideline;
}
