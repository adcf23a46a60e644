import { articleInputSchema, type ArticleFields, type ArticleInput } from './article.js';
import { ArticleTooLarge, InvalidArticle, TooManyArticles } from './knowledge-errors.js';

export interface KnowledgeLimits {
  /** The largest body, in UTF-8 bytes. */
  maxBodyBytes: number;
  /** The most articles a knowledge base holds. */
  maxArticles: number;
  /** The longest passage cut from a body, in characters. */
  maxPassageChars: number;
}

export const DEFAULT_KNOWLEDGE_LIMITS: KnowledgeLimits = {
  maxBodyBytes: 64 * 1024,
  maxArticles: 10_000,
  maxPassageChars: 800,
};

/** The input as an article's fields, or InvalidArticle / ArticleTooLarge. */
export function validArticle(input: ArticleInput, limits: KnowledgeLimits): ArticleFields {
  const parsed = articleInputSchema.safeParse(input);
  if (!parsed.success) throw InvalidArticle.of(parsed.error);
  const bytes = Buffer.byteLength(parsed.data.body, 'utf8');
  if (bytes > limits.maxBodyBytes)
    throw new ArticleTooLarge(parsed.data.slug, bytes, limits.maxBodyBytes);
  return parsed.data;
}

/** Throws TooManyArticles when a new article would go past the limit. */
export function checkRoomForOneMore(slug: string, count: number, limits: KnowledgeLimits): void {
  if (count >= limits.maxArticles) throw new TooManyArticles(slug, limits.maxArticles);
}
