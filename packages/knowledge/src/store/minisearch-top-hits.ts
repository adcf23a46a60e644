import type MiniSearch from 'minisearch';
import type { Query, SearchOptions, SearchResult } from 'minisearch';

/** A match as MiniSearch scores it before it becomes a result object. */
interface RawMatch {
  score: number;
  terms: string[];
}

/** The parts of minisearch@7.2.0 that `search` itself uses, not in its typings. */
interface MiniSearchInternals {
  executeQuery?: (query: Query, options?: SearchOptions) => Map<number, RawMatch>;
  _documentIds?: Map<number, unknown>;
  _storedFields?: Map<number, Record<string, unknown> | undefined>;
}

/**
 * The `limit` best results of `query` whose stored fields `keep` accepts, best first, scored as
 * MiniSearch's `search` scores them.
 */
export function topHits<T>(
  index: MiniSearch<T>,
  query: Query,
  options: SearchOptions,
  limit: number,
  keep: (stored: Record<string, unknown>) => boolean = () => true,
): SearchResult[] {
  // Patch of minisearch@7.2.0, for speed: its `search` turns every match into a result object
  // (stored fields copied, match terms listed) and sorts them all; a question of a few common
  // words matches thousands of passages at 10,000 articles, and a search returns 5. This keeps
  // its scoring (executeQuery, score × matched query terms) and builds only the best `limit`.
  // Gain: see the bench's help center scenario (README, scenario 11). Guarded by the contract
  // suite (ranking, language filter, replaced and deleted articles); a MiniSearch without these
  // internals gets its public `search`.
  const internals = index as unknown as MiniSearchInternals;
  const { executeQuery, _documentIds: ids, _storedFields: stored } = internals;
  if (typeof executeQuery !== 'function' || !ids || !stored)
    return index.search(query, { ...options, filter: keep }).slice(0, limit);
  const raw = executeQuery.call(index, query, options);
  const best: Array<{ shortId: number; score: number; terms: string[] }> = [];
  for (const [shortId, match] of raw) {
    const score = match.score * (match.terms.length || 1);
    if (best.length === limit && score <= best[limit - 1]!.score) continue;
    if (!keep(stored.get(shortId) ?? {})) continue;
    let at = best.length;
    while (at > 0 && best[at - 1]!.score < score) at -= 1;
    best.splice(at, 0, { shortId, score, terms: match.terms });
    if (best.length > limit) best.pop();
  }
  return best.map(({ shortId, score, terms }) => ({
    id: ids.get(shortId),
    score,
    terms,
    queryTerms: terms,
    match: {},
    ...stored.get(shortId),
  }));
}
