import {
  allWordsConfigs,
  anyWordQueries,
  type QueryWord,
} from '../src/store/postgres-query-words.js';

const word = (lexeme: string, here: number, config = 'english'): QueryWord => ({
  config,
  lexeme,
  here,
  everywhere: here,
});

describe('anyWordQueries', () => {
  it('when a query has common and rare words, then only the rare ones are searched, the two together first', () => {
    const [query] = anyWordQueries(
      [word('acme', 5_000), word('refund', 40), word('warranty', 3), word('zeppelin', 0)],
      20_000,
    );
    expect(query).toEqual({
      config: 'english',
      candidates: ["'warranty' & 'refund'", "'warranty' | 'refund'"],
      anyWord: "'warranty' | 'refund'",
    });
  });

  it('when a query keeps five words, then the passages holding the four rarest together are read first, then three, two, any two, any one', () => {
    const [query] = anyWordQueries(
      [word('e', 50), word('d', 40), word('c', 30), word('b', 20), word('a', 10)],
      20_000,
    );
    expect(query?.candidates).toEqual([
      "'a' & 'b' & 'c' & 'd'",
      "'a' & 'b' & 'c'",
      "'a' & 'b'",
      "('a' & 'b') | ('a' & 'c') | ('a' & 'd') | ('a' & 'e') | ('b' & 'c') | ('b' & 'd') | ('b' & 'e') | ('c' & 'd') | ('c' & 'e') | ('d' & 'e')",
      "'a' | 'b' | 'c' | 'd' | 'e'",
    ]);
  });

  it('when every word a passage holds is common, then the common words are searched', () => {
    const [query] = anyWordQueries([word('acme', 5_000), word('zeppelin', 0)], 20_000);
    expect(query).toEqual({ config: 'english', candidates: ["'acme'"], anyWord: "'acme'" });
  });

  it('when a small knowledge base is searched, then a word in most passages is not common', () => {
    const [query] = anyWordQueries([word('acme', 90), word('refund', 1)], 100);
    expect(query?.anyWord).toBe("'refund' | 'acme'");
  });

  it('when no passage of a configuration holds a word of the query, then it has no search', () => {
    const queries = anyWordQueries(
      [word('refund', 4), word('refund', 0, 'german'), word('rückerstattung', 2, 'german')],
      1_000,
    );
    expect(queries.map((q) => q.config)).toEqual(['english', 'german']);
    expect(queries[1]?.anyWord).toBe("'rückerstattung'");
    expect(anyWordQueries([word('zeppelin', 0)], 1_000)).toEqual([]);
  });

  it('when one configuration’s passages hold more of the query’s words, then only it is searched', () => {
    const queries = anyWordQueries(
      [word('plan', 90), word('help', 8), word('a', 1, 'french'), word('2', 1, 'french')].concat(
        word('annual', 3),
      ),
      1_000,
    );
    expect(queries.map((q) => q.config)).toEqual(['english']);
  });

  it('when a lexeme holds quotes or backslashes, then they are escaped as tsquery input', () => {
    const [query] = anyWordQueries([word("o'brien\\x", 1)], 10);
    expect(query?.anyWord).toBe("'o''brien\\\\x'");
  });
});

describe('allWordsConfigs', () => {
  const held = (config: string, lexeme: string, here: number): QueryWord => ({
    config,
    lexeme,
    here,
    everywhere: here,
  });

  it('when a configuration lacks one of the words, then only those holding every word are searched', () => {
    const words = [
      held('english', 'refund', 40),
      held('english', 'window', 3),
      held('german', 'refund', 0),
      held('german', 'window', 2),
    ];
    expect(allWordsConfigs('refund window', words)).toEqual(['english']);
  });

  it('when a word is in no passage at all, then no all-words search is made', () => {
    const words = [held('english', 'refund', 40), held('english', 'zeppelin', 0)];
    expect(allWordsConfigs('refund zeppelin', words)).toEqual([]);
  });

  it('when the query uses or or -word, then every configuration of its words is searched', () => {
    const words = [held('english', 'refund', 40), held('english', 'zeppelin', 0)];
    expect(allWordsConfigs('refund or zeppelin', words)).toEqual(['english']);
    expect(allWordsConfigs('refund -zeppelin', words)).toEqual(['english']);
    expect(allWordsConfigs('e-mail zeppelin', words)).toEqual([]);
  });
});
