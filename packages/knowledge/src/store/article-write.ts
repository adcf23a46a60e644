import {
  contentHash,
  type Article,
  type ArticleFields,
  type ArticleInput,
  type ArticleSource,
} from '../articles/article.js';
import { validArticle, type KnowledgeLimits } from '../articles/knowledge-limits.js';
import { cutPassages, type Passage } from '../passages/cut-passages.js';

export interface ArticleWrite {
  fields: ArticleFields;
  hash: string;
  passages: Passage[];
  /** The article as stored, written at `updatedAt`. */
  article(updatedAt: Date): Article;
}

export interface WriteOptions {
  /** Where the article comes from (default `api`); help center folders write `file`. */
  source?: ArticleSource;
}

/** What either store writes for an input: validated (InvalidArticle, ArticleTooLarge), hashed, cut. */
export function articleWrite(
  input: ArticleInput,
  limits: KnowledgeLimits,
  source: ArticleSource = 'api',
): ArticleWrite {
  const fields = validArticle(input, limits);
  const { slug, title, body, language, tags } = fields;
  const hash = contentHash(fields);
  return {
    fields,
    hash,
    passages: cutPassages(body, limits.maxPassageChars),
    article: (updatedAt) => ({
      slug,
      title,
      body,
      language,
      tags,
      updated_at: updatedAt.toISOString(),
      hash,
      source,
    }),
  };
}
