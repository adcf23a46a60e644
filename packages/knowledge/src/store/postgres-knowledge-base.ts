import { withTransaction } from '@repo/pg-kit';
import type pg from 'pg';
import { type Article, type ArticleInput, type ArticleSource } from '../articles/article.js';
import {
  checkRoomForOneMore,
  DEFAULT_KNOWLEDGE_LIMITS,
  type KnowledgeLimits,
} from '../articles/knowledge-limits.js';
import { articleWrite, type WriteOptions } from './article-write.js';
import {
  searchOptionsSchema,
  type ArticlePage,
  type KnowledgeBase,
  type SearchHit,
  type SearchOptions,
  type UpsertResult,
} from './knowledge-base.js';
import { allWordsConfigs, anyWordQueries, type QueryWord } from './postgres-query-words.js';
import { textSearchConfig } from './text-search-config.js';

export interface PostgresKnowledgeBaseOptions {
  pool: pg.Pool;
  /** The service's schema, set up with knowledgeTablesMigration. */
  schema: string;
  limits?: Partial<KnowledgeLimits>;
  now?: () => Date;
}

interface ArticleRow {
  slug: string;
  title: string;
  body: string;
  language: string;
  tags: string[];
  hash: string;
  updated_at: Date;
  source: ArticleSource;
}

/** A word of the query (queryWordsStatement). */
type WordRow = QueryWord & { passages: number };

interface HitRow {
  slug: string;
  position: number;
  title: string;
  heading: string | null;
  text: string;
  score: number;
}

/** The statements' order: score, then slug and position. */
const byRank = (a: HitRow, b: HitRow) =>
  b.score - a.score || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : a.position - b.position);

const articleOf = (row: ArticleRow): Article => ({
  slug: row.slug,
  title: row.title,
  body: row.body,
  language: row.language,
  tags: row.tags,
  updated_at: row.updated_at.toISOString(),
  hash: row.hash,
  source: row.source,
});

/**
 * Passages holding every word of the query as websearch_to_tsquery reads it (quoted phrases, -word
 * excluded), made in each of the configurations $4; each one's passages are searched on their own
 * (LATERAL), so that each is a lookup in the GIN index with its own query. Ranked by ts_rank,
 * divided by 1 + the log of the passage's length (normalization 1). The queries are made once
 * (MATERIALIZED): inlined, PostgreSQL made each again for every row it checked and ranked.
 */
const allWordsStatement = (schema: string) => `
  WITH queries AS MATERIALIZED (
    SELECT c.config, websearch_to_tsquery(c.config, $1) AS query
    FROM unnest($4::regconfig[]) AS c(config))
  SELECT hit.* FROM queries AS q CROSS JOIN LATERAL (
    SELECT p.slug, p.position, p.title, p.heading, p.text, ts_rank(p.tsv, q.query, 1) AS score
    FROM "${schema}"."knowledge_passages" AS p
    WHERE p.tsv @@ q.query AND p.config = q.config AND ($2::text IS NULL OR p.language = $2)
    ORDER BY score DESC, p.slug, p.position
    LIMIT $3) AS hit
  ORDER BY hit.score DESC, hit.slug, hit.position
  LIMIT $3`;

/**
 * The query's words (lexemes) in each configuration in use, with the passages holding each there
 * and in all configurations, and PostgreSQL's estimate of all the passages; and whether any article
 * is stored (`stored`, on every row: one row without a word when the query has none).
 */
const queryWordsStatement = (schema: string) => `
  SELECT word.*, s.stored
  FROM (SELECT EXISTS (SELECT FROM "${schema}"."knowledge_articles") AS stored) AS s
  LEFT JOIN LATERAL (
    SELECT k.config::text AS config, w.lexeme, counts.here, counts.everywhere,
      (SELECT greatest(c.reltuples, 0)::int FROM pg_class AS c
        WHERE c.oid = '"${schema}"."knowledge_passages"'::regclass) AS passages
    FROM "${schema}"."knowledge_configs" AS k
    CROSS JOIN unnest(tsvector_to_array(to_tsvector(k.config, $1))) AS w(lexeme)
    CROSS JOIN LATERAL (
      SELECT coalesce(sum(l.passages) FILTER (WHERE l.config = k.config), 0)::int AS here,
        coalesce(sum(l.passages), 0)::int AS everywhere
      FROM "${schema}"."knowledge_lexemes" AS l WHERE l.lexeme = w.lexeme) AS counts) AS word
  ON true`;

/**
 * Each configuration's candidates ($2: passages holding these words, see anyWordQueries), ranked
 * as the all-words search ranks, by ts_rank over its words kept ($3, any of them).
 */
const anyWordStatement = (schema: string) => `
  SELECT hit.* FROM unnest($1::regconfig[], $2::tsquery[], $3::tsquery[])
    AS q(config, candidates, any_word)
  CROSS JOIN LATERAL (
    SELECT p.slug, p.position, p.title, p.heading, p.text, ts_rank(p.tsv, q.any_word, 1) AS score
    FROM "${schema}"."knowledge_passages" AS p
    WHERE p.tsv @@ q.candidates AND p.config = q.config AND ($4::text IS NULL OR p.language = $4)
    ORDER BY score DESC, p.slug, p.position
    LIMIT $5) AS hit
  ORDER BY hit.score DESC, hit.slug, hit.position
  LIMIT $5`;

/** Adds (`+`) or takes away (`-`) the lexemes of an article's passages from their counts. */
const countLexemesStatement = (schema: string, change: '+' | '-') => `
  INSERT INTO "${schema}"."knowledge_lexemes" AS l (lexeme, config, passages)
  SELECT w.lexeme, p.config, ${change}count(*)::int
  FROM "${schema}"."knowledge_passages" AS p CROSS JOIN unnest(p.tsv) AS w
  WHERE p.slug = $1
  GROUP BY w.lexeme, p.config
  ON CONFLICT (lexeme, config) DO UPDATE SET passages = l.passages + excluded.passages`;

/**
 * The knowledge base in PostgreSQL: an article row and its passages' rows, replaced together in one
 * transaction. Writes to one knowledge base take turns on an advisory lock, so that the article
 * limit holds and an unchanged article is never rewritten, whatever instances write at once.
 *
 * Search reads the query's words first, then finds the passages holding all of them (stemmed in
 * each configuration whose passages hold them all), or when there are none, any of them: the
 * distinctive ones, passages holding the rarest first (see anyWordQueries). Each write keeps the count of passages holding each lexeme.
 */
export class PostgresKnowledgeBase implements KnowledgeBase {
  private readonly pool: pg.Pool;
  private readonly limits: KnowledgeLimits;
  private readonly now: () => Date;
  private readonly lockName: string;
  private readonly sql: Record<
    | 'lock'
    | 'current'
    | 'count'
    | 'write'
    | 'dropPassages'
    | 'countLexemes'
    | 'uncountLexemes'
    | 'writePassages'
    | 'config'
    | 'writeConfig'
    | 'analyzeConfigs'
    | 'delete'
    | 'get'
    | 'list'
    | 'searchAll'
    | 'queryWords'
    | 'searchAny',
    string
  >;

  constructor(options: PostgresKnowledgeBaseOptions) {
    this.pool = options.pool;
    this.limits = { ...DEFAULT_KNOWLEDGE_LIMITS, ...options.limits };
    this.now = options.now ?? (() => new Date());
    this.lockName = `${options.schema}.knowledge_articles`;
    const articles = `"${options.schema}"."knowledge_articles"`;
    const passages = `"${options.schema}"."knowledge_passages"`;
    const configs = `"${options.schema}"."knowledge_configs"`;
    this.sql = {
      lock: 'SELECT pg_advisory_xact_lock(hashtext($1))',
      current: `SELECT hash FROM ${articles} WHERE slug = $1`,
      count: `SELECT count(*)::int AS count FROM ${articles}`,
      write: `INSERT INTO ${articles} (slug, title, body, language, tags, hash, updated_at, source)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
        ON CONFLICT (slug) DO UPDATE SET title = excluded.title, body = excluded.body,
          language = excluded.language, tags = excluded.tags, hash = excluded.hash,
          updated_at = excluded.updated_at, source = excluded.source`,
      dropPassages: `DELETE FROM ${passages} WHERE slug = $1`,
      countLexemes: countLexemesStatement(options.schema, '+'),
      uncountLexemes: countLexemesStatement(options.schema, '-'),
      writePassages: `INSERT INTO ${passages} (slug, position, language, config, title, heading, text)
        SELECT $1, p.position, $2, $3::regconfig, $4, p.heading, p.text
        FROM unnest($5::int[], $6::text[], $7::text[]) AS p(position, heading, text)`,
      // A configuration this server lacks falls back to simple (see text-search-config.ts).
      config: `SELECT coalesce(
          (SELECT c.oid::regconfig FROM pg_ts_config AS c WHERE c.cfgname = $1), 'simple')::text
        AS config`,
      writeConfig: `INSERT INTO ${configs} (config) VALUES ($1::regconfig) ON CONFLICT DO NOTHING`,
      analyzeConfigs: `ANALYZE ${configs}`,
      delete: `DELETE FROM ${articles} WHERE slug = $1`,
      get: `SELECT slug, title, body, language, tags, hash, updated_at, source FROM ${articles} WHERE slug = $1`,
      list: `SELECT slug, title, '' AS body, language, tags, hash, updated_at, source FROM ${articles}
        WHERE slug > $1 ORDER BY slug LIMIT $2`,
      searchAll: allWordsStatement(options.schema),
      queryWords: queryWordsStatement(options.schema),
      searchAny: anyWordStatement(options.schema),
    };
  }

  async upsert(input: ArticleInput, options: WriteOptions = {}): Promise<UpsertResult> {
    const write = articleWrite(input, this.limits, options.source);
    const { slug, title, body, language, tags } = write.fields;
    return withTransaction(this.pool, async (client) => {
      await client.query(this.sql.lock, [this.lockName]);
      const current = await client.query<{ hash: string }>(this.sql.current, [slug]);
      const existing = current.rows[0];
      if (existing?.hash === write.hash)
        return { outcome: 'unchanged' as const, article: (await this.read(slug, client))! };
      if (!existing) {
        const { rows } = await client.query<{ count: number }>(this.sql.count);
        checkRoomForOneMore(slug, rows[0]!.count, this.limits);
      }
      const article = write.article(this.now());
      const values = [
        slug,
        title,
        body,
        language,
        tags,
        write.hash,
        article.updated_at,
        article.source,
      ];
      await client.query(this.sql.write, values);
      await client.query(this.sql.uncountLexemes, [slug]);
      await client.query(this.sql.dropPassages, [slug]);
      const { rows } = await client.query<{ config: string }>(this.sql.config, [
        textSearchConfig(language),
      ]);
      const config = rows[0]!.config;
      const added = await client.query(this.sql.writeConfig, [config]);
      // Autovacuum never analyzes a table of a few rows: without its count, the planner costs a
      // search for thousands of configurations, past jit_above_cost (600 ms to compile, measured).
      if (added.rowCount === 1) await client.query(this.sql.analyzeConfigs);
      await client.query(this.sql.writePassages, [
        slug,
        language,
        config,
        title,
        write.passages.map((passage) => passage.position),
        write.passages.map((passage) => passage.heading),
        write.passages.map((passage) => passage.text),
      ]);
      await client.query(this.sql.countLexemes, [slug]);
      return { outcome: existing ? ('replaced' as const) : ('created' as const), article };
    });
  }

  async delete(slug: string): Promise<boolean> {
    return withTransaction(this.pool, async (client) => {
      await client.query(this.sql.lock, [this.lockName]);
      await client.query(this.sql.uncountLexemes, [slug]);
      const { rowCount } = await client.query(this.sql.delete, [slug]);
      return (rowCount ?? 0) > 0;
    });
  }

  get(slug: string): Promise<Article | undefined> {
    return this.read(slug, this.pool);
  }

  async list({ limit, after }: { limit: number; after?: string }): Promise<ArticlePage> {
    // '' sorts before every slug (bytewise).
    const { rows } = await this.pool.query<ArticleRow>(this.sql.list, [after ?? '', limit + 1]);
    const page = rows.slice(0, limit).map((row) => {
      const { body: _body, ...summary } = articleOf(row);
      return summary;
    });
    return { articles: page, next: rows.length > limit ? page[page.length - 1]?.slug : undefined };
  }

  async search(query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
    if (!query.trim()) return [];
    return (await this.searchIfAny(query, options)) ?? [];
  }

  async searchIfAny(query: string, options: SearchOptions = {}): Promise<SearchHit[] | undefined> {
    const { limit, language } = searchOptionsSchema.parse(options);
    const wanted = language?.toLowerCase() ?? null;
    const { rows: read } = await this.pool.query<Partial<WordRow> & { stored: boolean }>(
      this.sql.queryWords,
      [query],
    );
    if (!read[0]?.stored) return undefined;
    const words = read.filter((row): row is WordRow & { stored: boolean } => row.lexeme != null);
    const configs = allWordsConfigs(query, words);
    let rows: HitRow[] = [];
    if (configs.length > 0)
      ({ rows } = await this.pool.query<HitRow>(this.sql.searchAll, [
        query,
        wanted,
        limit,
        configs,
      ]));
    if (rows.length === 0) rows = await this.searchAnyWord(words, wanted, limit);
    return rows.map((row) => ({
      slug: row.slug,
      title: row.title,
      heading: row.heading,
      passage: row.text,
      score: row.score,
    }));
  }

  /**
   * The passages holding some of the query's words, its distinctive ones (anyWordQueries): the
   * narrowest candidates first, one statement each, wider ones only until `limit` are found (any
   * one word only when nothing narrower was), ranked together.
   */
  private async searchAnyWord(
    words: WordRow[],
    language: string | null,
    limit: number,
  ): Promise<HitRow[]> {
    const queries = anyWordQueries(words, words[0]?.passages ?? 0);
    const found = new Map<string, HitRow>();
    for (let step = 0; found.size < limit; step += 1) {
      const reading = queries.filter((q) => step < q.candidates.length);
      // The last step (any word kept) reads most: only when no narrower one found anything.
      const anyWord = reading.every((q) => step === q.candidates.length - 1);
      if (reading.length === 0 || (anyWord && found.size > 0)) break;
      const { rows } = await this.pool.query<HitRow>(this.sql.searchAny, [
        reading.map((q) => q.config),
        reading.map((q) => q.candidates[step]),
        reading.map((q) => q.anyWord),
        language,
        limit,
      ]);
      for (const row of rows) found.set(`${row.slug}#${row.position}`, row);
    }
    return [...found.values()].sort(byRank).slice(0, limit);
  }

  private async read(slug: string, db: pg.Pool | pg.PoolClient): Promise<Article | undefined> {
    const { rows } = await db.query<ArticleRow>(this.sql.get, [slug]);
    return rows[0] && articleOf(rows[0]);
  }
}
