export {
  articleInputSchema,
  articleSchema,
  articleSourceSchema,
  articleSummarySchema,
  contentHash,
  languageSchema,
  slugSchema,
  type Article,
  type ArticleFields,
  type ArticleInput,
  type ArticleSource,
  type ArticleSummary,
} from './articles/article.js';
export { ArticleTooLarge, InvalidArticle, TooManyArticles } from './articles/knowledge-errors.js';
export { DEFAULT_KNOWLEDGE_LIMITS, type KnowledgeLimits } from './articles/knowledge-limits.js';
export { type WriteOptions } from './store/article-write.js';
export { cutPassages, type Passage } from './passages/cut-passages.js';
export {
  MAX_SEARCH_LIMIT,
  searchHitSchema,
  searchOptionsSchema,
  type ArticlePage,
  type KnowledgeBase,
  type SearchHit,
  type SearchOptions,
  type UpsertOutcome,
  type UpsertResult,
} from './store/knowledge-base.js';
export {
  MemoryKnowledgeBase,
  type MemoryKnowledgeBaseOptions,
} from './store/memory-knowledge-base.js';
export {
  PostgresKnowledgeBase,
  type PostgresKnowledgeBaseOptions,
} from './store/postgres-knowledge-base.js';
export { knowledgeTablesMigration } from './store/knowledge-tables.js';
export { textSearchConfig } from './store/text-search-config.js';
export { parseArticleFile } from './help-center/article-file.js';
export { type HelpCenterLoad } from './help-center/help-center-folder.js';
export { loadHelpCenter } from './help-center/load-help-center.js';
export {
  watchHelpCenter,
  type HelpCenterWatch,
  type WatchOptions,
} from './help-center/watch-help-center.js';
export {
  knowledgeRoutes,
  articlePageSchema,
  searchAnswerSchema,
  upsertAnswerSchema,
  MAX_QUERY_CHARS,
} from './routes/knowledge-routes.js';
export { DEFAULT_KB_SCHEMA, knowledgeEnv } from './help-center/knowledge-env.js';
export {
  guardedKnowledgeBase,
  openHelpCenter,
  type DatabaseGuard,
  type HelpCenter,
  type HelpCenterSettings,
} from './help-center/help-center-service.js';
export { checkCitations, type CheckedCitations } from './citations/check-citations.js';
export {
  helpCenterMetrics,
  type HelpCenterMetricNames,
} from './help-center/help-center-metrics.js';
