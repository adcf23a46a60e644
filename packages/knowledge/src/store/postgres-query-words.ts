/** A word of the query as one text search configuration reads it (a lexeme), and how many passages hold it. */
export interface QueryWord {
  config: string;
  lexeme: string;
  /** Passages of this configuration holding it. */
  here: number;
  /** Passages of every configuration holding it: the rows its GIN lookup returns. */
  everywhere: number;
}

/** The any-word search in one configuration: the passages it reads, and the query ranking them. */
export interface AnyWordQuery {
  config: string;
  /**
   * tsquery texts, narrowest first, each the passages read when the ones before it hold none: the
   * rarest words kept together (four, then three, then two), two of the rarest (any pair), one of
   * the words kept.
   */
  candidates: string[];
  /** tsquery text: the words kept, any of them; ts_rank over it ranks the candidates. */
  anyWord: string;
}

/**
 * A word in more than this share of the passages (and more than COMMON_MIN_PASSAGES of them) is
 * left out while the query has a rarer one, as the memory store does (memory-knowledge-base.ts).
 */
export const COMMON_SHARE = 0.05;
export const COMMON_MIN_PASSAGES = 500;
/** The rarest words kept that the pairs pair (28 pairs): a pair is a term of the query. */
export const PAIRED_WORDS = 8;
/** The most of the rarest words kept that the narrowest candidates hold together. */
export const WORDS_TOGETHER = 4;

/** websearch_to_tsquery's `or` and `-word`: with either, a passage may match without every word. */
const ALTERNATIVE_OR_EXCLUDED = /(^|\s)(or\s|-\S)/i;

/**
 * The configurations an all-words search of `query` can find passages in: those whose passages
 * hold each of its words (a GIN lookup reads every configuration's passages holding the query's
 * lexemes, so a search in a configuration that lacks one only reads rows to drop them). With `or`
 * or `-word` in the query, every configuration its words were made in.
 */
export function allWordsConfigs(query: string, words: QueryWord[]): string[] {
  const configs = [...new Set(words.map((word) => word.config))];
  if (ALTERNATIVE_OR_EXCLUDED.test(query)) return configs;
  return configs.filter((config) => words.every((word) => word.config !== config || word.here > 0));
}

/** A lexeme as tsquery input: quoted, so that no character of it is read as an operator. */
const quoted = (lexeme: string) => `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/** Every pair of `lexemes`, as a tsquery that a passage holding two of them matches. */
function twoOf(lexemes: string[]): string {
  const pairs = lexemes.flatMap((first, i) =>
    lexemes.slice(i + 1).map((second) => `(${quoted(first)} & ${quoted(second)})`),
  );
  return pairs.join(' | ');
}

/**
 * The any-word search of each configuration whose passages hold the most of the query's words (the
 * query's language: another configuration reads its stop words and numbers as words), from the
 * query's words there: words no passage holds are left out; so are the common ones while a rarer
 * word is left (when the query has only common words, they are searched). The GIN index says at
 * little cost which passages hold some words together, but every candidate is a heap row read and
 * ranked: so a search reads the passages holding the rarest words together first, dropping the
 * commonest of them until some passage holds the rest, then any two of them, then any one (the
 * words a ranking by ts_rank puts first anyway, as it counts the words matched). A configuration
 * whose passages hold none of the query's words has no search.
 */
export function anyWordQueries(words: QueryWord[], passages: number): AnyWordQuery[] {
  const common = Math.max(COMMON_MIN_PASSAGES, COMMON_SHARE * passages);
  const byConfig = new Map<string, QueryWord[]>();
  for (const word of words.filter((word) => word.here > 0))
    byConfig.set(word.config, [...(byConfig.get(word.config) ?? []), word]);
  const most = Math.max(0, ...[...byConfig.values()].map((held) => held.length));
  const inQueryLanguage = [...byConfig].filter(([, held]) => held.length === most);
  return inQueryLanguage.map(([config, held]) => {
    const rare = held.filter((word) => word.here <= common);
    const kept = (rare.length > 0 ? rare : held)
      .sort((a, b) => a.everywhere - b.everywhere || (a.lexeme < b.lexeme ? -1 : 1))
      .map((word) => word.lexeme);
    const anyWord = kept.map(quoted).join(' | ');
    const together: string[] = [];
    for (let count = Math.min(kept.length, WORDS_TOGETHER); count >= 2; count -= 1)
      together.push(kept.slice(0, count).map(quoted).join(' & '));
    // Two words: their pair is the two together.
    const pairs = kept.length > 2 ? [twoOf(kept.slice(0, PAIRED_WORDS))!] : [];
    return { config, candidates: [...together, ...pairs, anyWord], anyWord };
  });
}
