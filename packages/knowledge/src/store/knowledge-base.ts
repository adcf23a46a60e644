import { z } from 'zod';
import type { Article, ArticleInput, ArticleSummary } from '../articles/article.js';
import type { WriteOptions } from './article-write.js';

/** What an upsert did: `unchanged` when the slug already held the same content (nothing written). */
export type UpsertOutcome = 'created' | 'replaced' | 'unchanged';

export interface UpsertResult {
  outcome: UpsertOutcome;
  article: Article;
}

export interface ArticlePage {
  /** In slug order. */
  articles: ArticleSummary[];
  /** The slug to pass as `after` for the next page; undefined on the last. */
  next: string | undefined;
}

export const searchHitSchema = z.object({
  slug: z.string(),
  title: z.string(),
  heading: z.string().nullable().describe('The heading the passage sits under, if any.'),
  passage: z.string().describe('The passage’s text: a part of the body, not all of it.'),
  score: z
    .number()
    .describe('Higher is better; comparable between hits of one search, not between stores.'),
});

export type SearchHit = z.infer<typeof searchHitSchema>;

export const MAX_SEARCH_LIMIT = 50;

export const searchOptionsSchema = z.object({
  limit: z.number().int().min(1).max(MAX_SEARCH_LIMIT).default(5),
  language: z
    .string()
    .optional()
    .describe('Only articles of this language (its stemming is used for the query).'),
});

export type SearchOptions = z.input<typeof searchOptionsSchema>;

/**
 * A help center's articles, searchable by passage. Implemented in memory (MemoryKnowledgeBase) and
 * in PostgreSQL (PostgresKnowledgeBase); one contract suite runs against both.
 */
export interface KnowledgeBase {
  /**
   * Creates or replaces the article of `input.slug`. The same content again writes nothing
   * (`unchanged`: same slug, same content hash; its source stays as it was). Throws
   * InvalidArticle, ArticleTooLarge, or TooManyArticles for a new slug past the limit.
   */
  upsert(input: ArticleInput, options?: WriteOptions): Promise<UpsertResult>;
  /** Whether there was an article to delete. */
  delete(slug: string): Promise<boolean>;
  get(slug: string): Promise<Article | undefined>;
  list(page: { limit: number; after?: string }): Promise<ArticlePage>;
  /** The best passages for a question, best first; none for a query without words. */
  search(query: string, options?: SearchOptions): Promise<SearchHit[]>;
  /** As search, but undefined when the knowledge base holds no article (one read tells both). */
  searchIfAny(query: string, options?: SearchOptions): Promise<SearchHit[] | undefined>;
}
