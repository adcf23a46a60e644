import type { Guideline, GuidelineScope, GuidelineSource, ScopeKind } from './guideline.js';

/** A rule one derivation learned, before it is merged or added. */
export interface LearnedRule {
  rule: string;
  scope: GuidelineScope;
}

export interface GuidelineFilter {
  kind?: ScopeKind | undefined;
  value?: string | undefined;
}

/**
 * The guidelines reviewers taught. Memory (src/guidelines/memory-guidelines.ts) or PostgreSQL
 * (postgres-guidelines.ts); kept apart from the threads, so retention deleting a thread keeps what
 * was learned from it (its sources still name the thread).
 */
export interface GuidelineStore {
  /**
   * The enabled guidelines of these scopes, given in order of precedence (most specific first):
   * by scope, then the most often taught, then the newest; at most `limit`.
   */
  forDraft(scopes: readonly GuidelineScope[], limit: number): Promise<Guideline[]>;
  /** Newest first. */
  list(filter: GuidelineFilter): Promise<Guideline[]>;
  update(
    id: string,
    change: { rule?: string | undefined; enabled?: boolean | undefined },
    at: string,
  ): Promise<Guideline | undefined>;
  delete(id: string): Promise<boolean>;
  /**
   * Records what derivation `jobId` learned from `source`: each rule joins a similar guideline of its
   * scope (its sources grow) or becomes a new one. Once per job: a rerun of a job already recorded
   * (its worker died after the commit) changes nothing and returns [].
   */
  learn(
    jobId: string,
    rules: readonly LearnedRule[],
    source: GuidelineSource,
    at: string,
  ): Promise<Guideline[]>;
}
