import {
  scopeKey,
  type Guideline,
  type GuidelineScope,
  type GuidelineSource,
} from './guideline.js';
import {
  learnedGuideline,
  type GuidelineChange,
  type GuidelineFilter,
  type GuidelineStore,
  type LearnedRule,
} from './guideline-store.js';

/** Memory mode: guidelines indexed by scope, so choosing a draft's reads four small lists. */
export class MemoryGuidelines implements GuidelineStore {
  private readonly byId = new Map<string, Guideline>();
  private readonly byScope = new Map<string, Set<string>>();
  private readonly jobs = new Set<string>();

  async forDraft(scopes: readonly GuidelineScope[], limit: number): Promise<Guideline[]> {
    const rank = new Map(scopes.map((scope, index) => [scopeKey(scope), index]));
    const found = scopes.flatMap((scope) => this.ofScope(scope).filter((g) => g.enabled));
    return found.sort(draftOrder((g) => rank.get(scopeKey(g.scope)) ?? 0)).slice(0, limit);
  }

  async list(filter: GuidelineFilter): Promise<Guideline[]> {
    return [...this.byId.values()]
      .filter(
        (g) =>
          (!filter.kind || g.scope.kind === filter.kind) &&
          (filter.value === undefined || g.scope.value === filter.value),
      )
      .sort((a, b) => b.created_at.localeCompare(a.created_at));
  }

  async update(id: string, change: GuidelineChange, at: string) {
    const current = this.byId.get(id);
    if (!current) return undefined;
    const updated = {
      ...current,
      rule: change.rule ?? current.rule,
      enabled: change.enabled ?? current.enabled,
      updated_at: at,
    };
    this.byId.set(id, updated);
    return updated;
  }

  async delete(id: string): Promise<boolean> {
    const current = this.byId.get(id);
    if (!current) return false;
    this.byId.delete(id);
    this.byScope.get(scopeKey(current.scope))?.delete(id);
    return true;
  }

  async learn(
    jobId: string,
    rules: readonly LearnedRule[],
    source: GuidelineSource,
    at: string,
  ): Promise<Guideline[]> {
    if (this.jobs.has(jobId)) return [];
    this.jobs.add(jobId);
    return rules.map((learned) => {
      const guideline = learnedGuideline(this.ofScope(learned.scope), learned, source, at);
      this.byId.set(guideline.id, guideline);
      const key = scopeKey(guideline.scope);
      if (!this.byScope.has(key)) this.byScope.set(key, new Set());
      this.byScope.get(key)!.add(guideline.id);
      return guideline;
    });
  }

  private ofScope(scope: GuidelineScope): Guideline[] {
    return [...(this.byScope.get(scopeKey(scope)) ?? [])].map((id) => this.byId.get(id)!);
  }
}

/** Most specific scope first, then the most often taught, then the newest. */
function draftOrder(scopeRank: (guideline: Guideline) => number) {
  return (a: Guideline, b: Guideline) =>
    scopeRank(a) - scopeRank(b) ||
    b.sources.length - a.sources.length ||
    b.updated_at.localeCompare(a.updated_at);
}
