import type MiniSearch from 'minisearch';

/** Per field id, the frequency of a term in each document (by short id). */
type FieldTermData = Map<number, Map<number, number>>;

/** The parts of minisearch@7.2.0 that its own search reads, not in its typings. */
interface MiniSearchInternals {
  _index?: {
    get(term: string): FieldTermData | undefined;
    atPrefix(prefix: string): Iterable<[string, FieldTermData]>;
    fuzzyGet(term: string, maxDistance: number): Map<string, [FieldTermData, number]>;
  };
  _fieldIds: Record<string, number>;
  _fieldLength: Map<number, number[]>;
  _avgFieldLength: number[];
  _documentCount: number;
  _storedFields: Map<number, Record<string, unknown> | undefined>;
  _nextId: number;
}

/** How the index is searched: MiniSearch's search options, as the store sets them. */
export interface TopHitsOptions {
  /** Field boosts (a field not named: 1). */
  boost: Record<string, number>;
  prefix: (term: string) => boolean;
  /** An edit distance as a share of the term's length, or false. */
  fuzzy: (term: string) => number | false;
  /** A word a query term's prefix or near spelling reaches that is not scored (the store's common words). */
  skipDerived?: (term: string) => boolean;
}

export interface TopHit {
  score: number;
  stored: Record<string, unknown>;
}

// MiniSearch's defaults (minisearch@7.2.0 defaultSearchOptions).
const BM25 = { k: 1.2, b: 0.7, d: 0.5 };
const PREFIX_WEIGHT = 0.375;
const FUZZY_WEIGHT = 0.45;
const MAX_FUZZY = 6;
/** Query terms a search scores at most (one bit each). */
export const MAX_QUERY_TERMS = 32;

/**
 * What topHits keeps per index between searches: every passage's field lengths in one array (by
 * short id × field; -1: no passage, or discarded), read from MiniSearch's per-passage map once
 * after the index changed rather than twice per match in every search; each query term's scored
 * postings (the common words of a help center come back in most emails); and the score arrays of
 * one search, set back to zero at its end (only the entries it touched), so that a search does
 * not allocate and clear arrays the size of the index. An add raises `_nextId`, a discard lowers
 * `_documentCount`: either makes the tables stale.
 */
interface ScoringTables {
  nextId: number;
  documentCount: number;
  fieldCount: number;
  lengths: Float64Array;
  scores: Float64Array;
  /** The query terms each passage matched, one bit each. */
  matched: Uint32Array;
  /** The short ids of the passages matched, in the order first matched: `touchedCount` of them. */
  touched: Int32Array;
  touchedCount: number;
  /** Each query term's postings as scoreTerm reads them, made on the term's first search. */
  terms: Map<string, TermPostings>;
  /** The postings held in `terms`, all terms together (bounded by MAX_CACHED_POSTINGS). */
  cachedPostings: number;
}

/**
 * A query term's postings, ready to add: for the term and each word its prefix or near spelling
 * reaches (one list per field), the passages' short ids and each one's score for it (BM25 with
 * the field's boost, the match's weight and the word's idf), in arrays rather than MiniSearch's
 * maps of maps.
 */
interface TermPostings {
  ids: Int32Array;
  scores: Float64Array;
}

/**
 * The most postings kept between searches (about 12 bytes each), and the most terms (an email's
 * names and order numbers are terms of their own, most holding no posting); past either the cache
 * starts again.
 */
const MAX_CACHED_POSTINGS = 2_000_000;
const MAX_CACHED_TERMS = 50_000;

const scoringTables = new WeakMap<object, ScoringTables>();

function scoringTablesOf(mini: MiniSearchInternals): ScoringTables {
  const cached = scoringTables.get(mini);
  if (cached?.nextId === mini._nextId && cached.documentCount === mini._documentCount)
    return cached;
  const fieldCount = mini._avgFieldLength.length;
  const lengths = new Float64Array(mini._nextId * fieldCount).fill(-1);
  for (const [shortId, fieldLengths] of mini._fieldLength)
    for (let field = 0; field < fieldCount; field += 1)
      lengths[shortId * fieldCount + field] = fieldLengths[field] ?? 0;
  const tables = {
    nextId: mini._nextId,
    documentCount: mini._documentCount,
    fieldCount,
    lengths,
    scores: new Float64Array(mini._nextId),
    matched: new Uint32Array(mini._nextId),
    touched: new Int32Array(mini._nextId),
    touchedCount: 0,
    terms: new Map(),
    cachedPostings: 0,
  };
  scoringTables.set(mini, tables);
  return tables;
}

/**
 * The `limit` best passages for `terms` (OR) whose stored fields `keep` accepts, best first, scored
 * as minisearch@7.2.0's `search` scores them (BM25 per field, prefix and fuzzy matches weighted
 * down, × the number of query terms matched).
 *
 * Patch of minisearch@7.2.0, for speed: its search makes a result object per matching passage
 * per term (terms and match lists), merges them term by term, builds a result with the stored
 * fields for every match and sorts them all; a draft's email matches thousands of passages at
 * 10,000 articles and keeps 5. This reads its index (the same SearchableMap lookups: get,
 * atPrefix, fuzzyGet) into one score array, with the field lengths from a table built once per
 * change of the index, and each term's scored postings kept until the index changes
 * (scoringTablesOf, termPostings). One difference: a passage discarded and not yet vacuumed
 * still counts in a term's document frequency (MiniSearch drops it while scoring). Measured:
 * bench scenario 11 (README). Guarded by the contract suite; without these internals (another
 * MiniSearch), `fallback` (its public search) answers.
 */
export function topHits<T>(
  index: MiniSearch<T>,
  search: {
    terms: string[];
    options: TopHitsOptions;
    limit: number;
    keep: (stored: Record<string, unknown>) => boolean;
  },
  fallback: () => TopHit[],
): TopHit[] {
  const { terms, options, limit, keep } = search;
  const mini = index as unknown as MiniSearchInternals;
  if (!mini._index || !mini._fieldLength || !mini._avgFieldLength || !mini._storedFields)
    return fallback();
  const tables = scoringTablesOf(mini);
  try {
    scoreTerms(mini, tables, terms, options);
    return bestOf(mini, tables, limit, keep);
  } finally {
    // bestOf sets the entries back to zero as it reads them: left only when it did not finish.
    clearTouched(tables);
  }
}

/** Sets the scores of the passages a search touched back to zero. */
function clearTouched(tables: ScoringTables): void {
  const { scores, matched, touched, touchedCount } = tables;
  for (let i = 0; i < touchedCount; i += 1) {
    scores[touched[i]!] = 0;
    matched[touched[i]!] = 0;
  }
  tables.touchedCount = 0;
}

/** Adds each passage's score for `terms` into the tables, noting the passages it touched. */
function scoreTerms(
  mini: MiniSearchInternals,
  tables: ScoringTables,
  terms: string[],
  options: TopHitsOptions,
): void {
  const { scores, matched, touched } = tables;
  terms.slice(0, MAX_QUERY_TERMS).forEach((term, i) => {
    const bit = 2 ** i;
    const { ids, scores: termScores } = termPostings(mini, tables, term, options);
    let count = tables.touchedCount;
    for (let j = 0; j < ids.length; j += 1) {
      const shortId = ids[j]!;
      if (matched[shortId] === 0) touched[count++] = shortId;
      matched[shortId]! |= bit;
      scores[shortId]! += termScores[j]!;
    }
    tables.touchedCount = count;
  });
}

/**
 * A term's postings from the tables, or read from MiniSearch's index (the term itself, the longer
 * words its prefix reaches, the words within its fuzzy distance) and kept. `options` must answer
 * the same for a term while the index is unchanged (the store's do: its common words change with
 * the index).
 */
function termPostings(
  mini: MiniSearchInternals,
  tables: ScoringTables,
  term: string,
  options: TopHitsOptions,
): TermPostings {
  const cached = tables.terms.get(term);
  if (cached) return cached;
  const ids: number[] = [];
  const scores: number[] = [];
  const { fieldCount, lengths } = tables;
  const fields = Object.entries(mini._fieldIds).map(([name, id]) => ({
    id,
    boost: options.boost[name] ?? 1,
  }));
  const add = (data: FieldTermData | undefined, weight: number) => {
    if (!data) return;
    for (const field of fields) {
      const frequencies = data.get(field.id);
      if (!frequencies) continue;
      const idf = Math.log(
        1 + (mini._documentCount - frequencies.size + 0.5) / (frequencies.size + 0.5),
      );
      const fieldWeight = weight * field.boost * idf;
      // BM25's length normalisation, k × (1 − b + b × length ÷ average), as fixed + perLength × length.
      const fixed = BM25.k * (1 - BM25.b);
      const perLength = (BM25.k * BM25.b) / mini._avgFieldLength[field.id]!;
      frequencies.forEach((frequency, shortId) => {
        const length = lengths[shortId * fieldCount + field.id]!;
        if (length < 0) return; // discarded, not yet vacuumed
        const tf = (frequency * (BM25.k + 1)) / (frequency + fixed + perLength * length);
        ids.push(shortId);
        scores.push(fieldWeight * (BM25.d + tf));
      });
    }
  };

  add(mini._index!.get(term), 1);
  const fuzzy = options.fuzzy(term);
  const distance =
    fuzzy === false ? 0 : fuzzy < 1 ? Math.min(MAX_FUZZY, Math.round(term.length * fuzzy)) : fuzzy;
  const fuzzyMatches = distance > 0 ? mini._index!.fuzzyGet(term, distance) : undefined;
  if (options.prefix(term)) {
    for (const [longer, data] of mini._index!.atPrefix(term)) {
      if (longer === term || options.skipDerived?.(longer)) continue;
      // A prefix match is scored as one, not also as a fuzzy match.
      fuzzyMatches?.delete(longer);
      const extra = longer.length - term.length;
      add(data, (PREFIX_WEIGHT * longer.length) / (longer.length + 0.3 * extra));
    }
  }
  for (const [near, [data, edits]] of fuzzyMatches ?? []) {
    if (edits > 0 && !options.skipDerived?.(near))
      add(data, (FUZZY_WEIGHT * near.length) / (near.length + edits));
  }

  const postings = { ids: Int32Array.from(ids), scores: Float64Array.from(scores) };
  if (
    tables.cachedPostings + ids.length > MAX_CACHED_POSTINGS ||
    tables.terms.size >= MAX_CACHED_TERMS
  ) {
    tables.terms.clear();
    tables.cachedPostings = 0;
  }
  tables.terms.set(term, postings);
  tables.cachedPostings += ids.length;
  return postings;
}

/**
 * The `limit` best of the touched passages that `keep` accepts: sum of scores × terms matched.
 * Sets each passage's entries back to zero as it reads them (one pass over the touched passages,
 * scattered through arrays the size of the index, rather than two).
 */
function bestOf(
  mini: MiniSearchInternals,
  tables: ScoringTables,
  limit: number,
  keep: (stored: Record<string, unknown>) => boolean,
): TopHit[] {
  const { scores, matched, touched, touchedCount } = tables;
  const best: TopHit[] = [];
  for (let i = 0; i < touchedCount; i += 1) {
    const shortId = touched[i]!;
    let bits = matched[shortId]!;
    const score = scores[shortId]!;
    scores[shortId] = 0;
    matched[shortId] = 0;
    let count = 0;
    for (; bits; bits &= bits - 1) count += 1;
    const total = score * count;
    if (best.length === limit && total <= best[limit - 1]!.score) continue;
    const stored = mini._storedFields.get(shortId) ?? {};
    if (!keep(stored)) continue;
    let at = best.length;
    while (at > 0 && best[at - 1]!.score < total) at -= 1;
    best.splice(at, 0, { score: total, stored });
    if (best.length > limit) best.pop();
  }
  tables.touchedCount = 0;
  return best;
}
