import MiniSearch from 'minisearch';
import { summaryOf, type Article, type ArticleInput } from '../articles/article.js';
import {
  checkRoomForOneMore,
  DEFAULT_KNOWLEDGE_LIMITS,
  type KnowledgeLimits,
} from '../articles/knowledge-limits.js';
import { articleWrite, type WriteOptions } from './article-write.js';
import { topHits, type TopHitsOptions } from './minisearch-top-hits.js';
import {
  searchOptionsSchema,
  type ArticlePage,
  type KnowledgeBase,
  type SearchHit,
  type SearchOptions,
  type UpsertResult,
} from './knowledge-base.js';

interface PassageDocument {
  id: string;
  slug: string;
  title: string;
  heading: string;
  text: string;
  language: string;
}

export interface MemoryKnowledgeBaseOptions {
  limits?: Partial<KnowledgeLimits>;
  now?: () => Date;
}

const copyOf = (article: Article): Article => ({ ...article, tags: [...article.tags] });

const tokenize = MiniSearch.getDefault('tokenize') as (text: string) => string[];
const processTerm = MiniSearch.getDefault('processTerm') as (term: string) => string;

/** A passage's distinct terms, as the index reads them. */
const termsOf = (document: PassageDocument): Set<string> =>
  new Set(
    tokenize(`${document.title} ${document.heading} ${document.text}`)
      .map(processTerm)
      .filter(Boolean),
  );

/** The index of the first of the sorted `slugs` after `after` (binary search). */
function firstAfter(slugs: readonly string[], after: string): number {
  let low = 0;
  let high = slugs.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (slugs[middle]! > after) high = middle;
    else low = middle + 1;
  }
  return low;
}

/**
 * A query word in more than this share of the passages (and more than COMMON_MIN_PASSAGES of them)
 * is left out of the search while the query has a rarer one: it adds little to the ranking (BM25's
 * weight of a word in 5 % of the passages is under half that of one in 0.1 %), and it costs the
 * most, every passage holding it being scored. PostgreSQL's configurations drop stop words the
 * same way. A common word a query term's prefix or near spelling reaches is not scored either.
 * Measured at 10,000 articles: bench scenario 11.
 */
const COMMON_SHARE = 0.05;

/** Title and heading words count more; prefixes and near spellings stand in for stemming. */
const SEARCH: TopHitsOptions = {
  boost: { title: 2, heading: 1.5 },
  prefix: (term) => term.length >= 4,
  // Short words match too many others within an edit: whole or as prefixes only. Two edits at
  // most, as typos go: the cost of a lookup grows steeply with the distance (a 20-letter word at
  // four edits took 16 ms).
  fuzzy: (term) => (term.length >= 8 ? 2 : term.length >= 6 ? 1 : false),
};
const COMMON_MIN_PASSAGES = 500;

/**
 * The knowledge base of a service without a database: articles in a map, their passages in a
 * MiniSearch index (BM25 over title, heading and text; prefix and fuzzy matching stand in for the
 * stemming PostgreSQL does). Gone when the process ends: a help center folder loads it again.
 */
export class MemoryKnowledgeBase implements KnowledgeBase {
  private readonly limits: KnowledgeLimits;
  private readonly now: () => Date;
  private readonly articles = new Map<string, Article>();
  private readonly passageIds = new Map<string, string[]>();
  /** The slugs sorted (list); undefined after a write. */
  private slugsInOrder: string[] | undefined;
  /** How many passages hold each term. */
  private readonly passagesWith = new Map<string, number>();
  private readonly index = new MiniSearch<PassageDocument>({
    fields: ['title', 'heading', 'text'],
    storeFields: ['slug', 'title', 'heading', 'text', 'language'],
    searchOptions: SEARCH,
  });

  constructor(options: MemoryKnowledgeBaseOptions = {}) {
    this.limits = { ...DEFAULT_KNOWLEDGE_LIMITS, ...options.limits };
    this.now = options.now ?? (() => new Date());
  }

  async upsert(input: ArticleInput, options: WriteOptions = {}): Promise<UpsertResult> {
    const write = articleWrite(input, this.limits, options.source);
    const { slug, title, language } = write.fields;
    const existing = this.articles.get(slug);
    if (existing?.hash === write.hash) return { outcome: 'unchanged', article: copyOf(existing) };
    if (!existing) checkRoomForOneMore(slug, this.articles.size, this.limits);
    const article = write.article(this.now());
    this.removePassages(slug);
    const documents = write.passages.map((passage) => ({
      id: `${slug}#${passage.position}`,
      slug,
      title,
      heading: passage.heading ?? '',
      text: passage.text,
      language,
    }));
    this.index.addAll(documents);
    for (const document of documents) this.countTerms(document, 1);
    this.passageIds.set(
      slug,
      documents.map((document) => document.id),
    );
    if (!existing) this.slugsInOrder = undefined;
    this.articles.set(slug, article);
    return { outcome: existing ? 'replaced' : 'created', article: copyOf(article) };
  }

  async delete(slug: string): Promise<boolean> {
    this.removePassages(slug);
    if (!this.articles.delete(slug)) return false;
    this.slugsInOrder = undefined;
    return true;
  }

  async get(slug: string): Promise<Article | undefined> {
    const article = this.articles.get(slug);
    return article && copyOf(article);
  }

  async list({ limit, after }: { limit: number; after?: string }): Promise<ArticlePage> {
    const slugs = this.sortedSlugs();
    const start = after === undefined ? 0 : firstAfter(slugs, after);
    const page = slugs.slice(start, start + limit);
    return {
      articles: page.map((slug) => summaryOf(copyOf(this.articles.get(slug)!))),
      next: slugs.length - start > limit ? page[page.length - 1] : undefined,
    };
  }

  /** The slugs in order, sorted once after a write rather than on every page (a draft with no hit asks for one). */
  private sortedSlugs(): string[] {
    return (this.slugsInOrder ??= [...this.articles.keys()].sort());
  }

  async search(query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
    const { limit, language } = searchOptionsSchema.parse(options);
    if (!query.trim()) return [];
    const wanted = language?.toLowerCase();
    const terms = this.distinctiveTerms(query);
    if (terms.length === 0) return [];
    const keep = (stored: Record<string, unknown>) => !wanted || stored['language'] === wanted;
    const common = this.commonCount();
    const skipDerived = (term: string) => (this.passagesWith.get(term) ?? 0) > common;
    const search = { terms, options: { ...SEARCH, skipDerived }, limit, keep };
    const hits = topHits(this.index, search, () =>
      this.index
        .search({ queries: terms, combineWith: 'OR' }, { filter: keep })
        .slice(0, limit)
        .map((result) => ({ score: result.score, stored: result })),
    );
    return hits.map(({ score, stored }) => ({
      slug: stored['slug'] as string,
      title: stored['title'] as string,
      heading: (stored['heading'] as string) || null,
      passage: stored['text'] as string,
      score,
    }));
  }

  async searchIfAny(query: string, options?: SearchOptions): Promise<SearchHit[] | undefined> {
    return this.articles.size > 0 ? this.search(query, options) : undefined;
  }

  /** The query's distinct terms, without the common ones while a rarer one is left (COMMON_SHARE). */
  private distinctiveTerms(query: string): string[] {
    const terms = [...new Set(tokenize(query).map(processTerm).filter(Boolean))];
    const most = this.commonCount();
    const distinctive = terms.filter((term) => (this.passagesWith.get(term) ?? 0) <= most);
    return distinctive.length > 0 ? distinctive : terms;
  }

  /** Passages past which a word is common (COMMON_SHARE). */
  private commonCount(): number {
    return Math.max(COMMON_MIN_PASSAGES, COMMON_SHARE * this.index.documentCount);
  }

  private countTerms(document: PassageDocument, change: 1 | -1): void {
    for (const term of termsOf(document)) {
      const count = (this.passagesWith.get(term) ?? 0) + change;
      if (count > 0) this.passagesWith.set(term, count);
      else this.passagesWith.delete(term);
    }
  }

  private removePassages(slug: string): void {
    const ids = this.passageIds.get(slug);
    for (const id of ids ?? []) {
      const stored = this.index.getStoredFields(id);
      if (stored) this.countTerms(stored as unknown as PassageDocument, -1);
    }
    if (ids) this.index.discardAll(ids);
    this.passageIds.delete(slug);
  }
}
