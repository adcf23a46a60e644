import { withTransaction } from '@repo/pg-kit';
import type pg from 'pg';
import { type Article, type ArticleInput } from '../articles/article.js';
import {
  checkRoomForOneMore,
  DEFAULT_KNOWLEDGE_LIMITS,
  type KnowledgeLimits,
} from '../articles/knowledge-limits.js';
import { articleWrite } from './article-write.js';
import {
  searchOptionsSchema,
  type ArticlePage,
  type KnowledgeBase,
  type SearchHit,
  type SearchOptions,
  type UpsertResult,
} from './knowledge-base.js';
import { TEXT_SEARCH_CONFIGS, textSearchConfig } from './text-search-config.js';

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
}

interface HitRow {
  slug: string;
  title: string;
  heading: string | null;
  text: string;
  score: number;
}

const articleOf = (row: ArticleRow): Article => ({
  slug: row.slug,
  title: row.title,
  body: row.body,
  language: row.language,
  tags: row.tags,
  updated_at: row.updated_at.toISOString(),
  hash: row.hash,
});

/**
 * The knowledge base in PostgreSQL: an article row and its passages' rows, replaced together in one
 * transaction. Writes to one knowledge base take turns on an advisory lock, so that the article
 * limit holds and an unchanged article is never rewritten, whatever instances write at once.
 *
 * Search matches a passage holding any of the query's words (stemmed in each language's
 * configuration) and ranks it by ts_rank; one holding the whole query as websearch_to_tsquery
 * reads it (every word, quoted phrases, `-word` excluded) ranks above all of those.
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
    | 'writePassages'
    | 'delete'
    | 'get'
    | 'list'
    | 'search',
    string
  >;

  constructor(options: PostgresKnowledgeBaseOptions) {
    this.pool = options.pool;
    this.limits = { ...DEFAULT_KNOWLEDGE_LIMITS, ...options.limits };
    this.now = options.now ?? (() => new Date());
    this.lockName = `${options.schema}.knowledge_articles`;
    const articles = `"${options.schema}"."knowledge_articles"`;
    const passages = `"${options.schema}"."knowledge_passages"`;
    this.sql = {
      lock: 'SELECT pg_advisory_xact_lock(hashtext($1))',
      current: `SELECT hash FROM ${articles} WHERE slug = $1`,
      count: `SELECT count(*)::int AS count FROM ${articles}`,
      write: `INSERT INTO ${articles} (slug, title, body, language, tags, hash, updated_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7)
        ON CONFLICT (slug) DO UPDATE SET title = excluded.title, body = excluded.body,
          language = excluded.language, tags = excluded.tags, hash = excluded.hash,
          updated_at = excluded.updated_at`,
      dropPassages: `DELETE FROM ${passages} WHERE slug = $1`,
      // A configuration this server lacks falls back to simple (see text-search-config.ts).
      writePassages: `INSERT INTO ${passages} (slug, position, language, config, title, heading, text)
        SELECT $1, p.position, $2,
          coalesce((SELECT c.oid::regconfig FROM pg_ts_config AS c WHERE c.cfgname = $3), 'simple'),
          $4, p.heading, p.text
        FROM unnest($5::int[], $6::text[], $7::text[]) AS p(position, heading, text)`,
      delete: `DELETE FROM ${articles} WHERE slug = $1`,
      get: `SELECT slug, title, body, language, tags, hash, updated_at FROM ${articles} WHERE slug = $1`,
      list: `SELECT slug, title, '' AS body, language, tags, hash, updated_at FROM ${articles}
        WHERE slug > $1 ORDER BY slug LIMIT $2`,
      // The query in each configuration searched: `any_word` (the plain query's words joined by OR)
      // finds the passages through the GIN index, `all_words` lifts those that match it whole.
      search: `WITH queries AS (
          SELECT c.oid::regconfig AS config,
            websearch_to_tsquery(c.oid::regconfig, $1) AS all_words,
            NULLIF(replace(plainto_tsquery(c.oid::regconfig, $1)::text, ' & ', ' | '), '')::tsquery
              AS any_word
          FROM pg_ts_config AS c WHERE c.cfgname = ANY($2::text[]))
        SELECT p.slug, p.title, p.heading, p.text,
          ts_rank(p.tsv, q.any_word, 1) + CASE WHEN p.tsv @@ q.all_words THEN 1 ELSE 0 END AS score
        FROM queries AS q JOIN ${passages} AS p ON p.config = q.config AND p.tsv @@ q.any_word
        WHERE $3::text IS NULL OR p.language = $3
        ORDER BY score DESC, p.slug, p.position
        LIMIT $4`,
    };
  }

  async upsert(input: ArticleInput): Promise<UpsertResult> {
    const write = articleWrite(input, this.limits);
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
      const values = [slug, title, body, language, tags, write.hash, article.updated_at];
      await client.query(this.sql.write, values);
      await client.query(this.sql.dropPassages, [slug]);
      await client.query(this.sql.writePassages, [
        slug,
        language,
        textSearchConfig(language),
        title,
        write.passages.map((passage) => passage.position),
        write.passages.map((passage) => passage.heading),
        write.passages.map((passage) => passage.text),
      ]);
      return { outcome: existing ? ('replaced' as const) : ('created' as const), article };
    });
  }

  async delete(slug: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(this.sql.delete, [slug]);
    return (rowCount ?? 0) > 0;
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
    const { limit, language } = searchOptionsSchema.parse(options);
    if (!query.trim()) return [];
    const wanted = language?.toLowerCase();
    const configs = wanted ? [textSearchConfig(wanted)] : TEXT_SEARCH_CONFIGS;
    const { rows } = await this.pool.query<HitRow>(this.sql.search, [
      query,
      configs,
      wanted ?? null,
      limit,
    ]);
    return rows.map((row) => ({
      slug: row.slug,
      title: row.title,
      heading: row.heading,
      passage: row.text,
      score: row.score,
    }));
  }

  private async read(slug: string, db: pg.Pool | pg.PoolClient): Promise<Article | undefined> {
    const { rows } = await db.query<ArticleRow>(this.sql.get, [slug]);
    return rows[0] && articleOf(rows[0]);
  }
}
