import { defineRoute, HttpError, type Route } from '@repo/http-kit';
import { z } from 'zod';
import {
  articleInputSchema,
  articleSchema,
  articleSummarySchema,
  slugSchema,
} from '../articles/article.js';
import { MAX_SEARCH_LIMIT, searchHitSchema, type KnowledgeBase } from '../store/knowledge-base.js';

/** The longest search query the API takes: a question, not a document. */
export const MAX_QUERY_CHARS = 500;
const MAX_PAGE = 500;

const slugParams = z.object({ slug: slugSchema });

const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE).default(100),
  after: z.string().max(120).optional().describe('The `next` of the previous page.'),
});

export const articlePageSchema = z.object({
  articles: z.array(articleSummarySchema),
  next: z.string().optional().describe('Pass as `after` for the next page; absent on the last.'),
});

const searchQuery = z.object({
  q: z.string().trim().min(1).max(MAX_QUERY_CHARS).describe('The question, in plain words.'),
  limit: z.coerce.number().int().min(1).max(MAX_SEARCH_LIMIT).default(5),
  language: z.string().max(35).optional().describe('Only articles of this language tag.'),
});

export const searchAnswerSchema = z.object({
  query: z.string(),
  hits: z.array(searchHitSchema),
});

/** What PUT answers: what the write did, and the article as stored. */
export const upsertAnswerSchema = z.object({
  outcome: z.enum(['created', 'replaced', 'unchanged']),
  article: articleSchema,
});

/** The article of a PUT: the slug is the path's. */
const articleBodySchema = articleInputSchema.omit({ slug: true });

const articleNotFound = (slug: string) =>
  new HttpError(404, 'article_not_found', `No article ${slug}.`, { extra: { slug } });

const limitAnswers = {
  413: {
    description:
      'The article’s body is over the limit (`article_too_large`), or the request body over the service’s.',
  },
  422: {
    description:
      'The knowledge base is full (`too_many_articles`, a new slug only) or the article is refused (`invalid_article`).',
  },
};

/**
 * The knowledge base's HTTP API, declared once for every service that mounts it (behind its auth,
 * in its /openapi.json): list, get, create or replace, delete, and search. Articles written here
 * are `source: api`, so a help center folder's load never deletes them.
 */
export function knowledgeRoutes(kb: KnowledgeBase): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/kb/articles',
      summary: 'The knowledge base’s articles, without their bodies, in slug order.',
      query: listQuery,
      responses: { 200: { description: 'A page of articles.', schema: articlePageSchema } },
      handler: async ({ query, res }) => {
        const page = await kb.list({
          limit: query.limit,
          ...(query.after ? { after: query.after } : {}),
        });
        res.json({ articles: page.articles, ...(page.next ? { next: page.next } : {}) });
      },
    }),
    defineRoute({
      method: 'get',
      path: '/kb/articles/{slug}',
      summary: 'One article with its markdown body.',
      params: slugParams,
      responses: {
        200: { description: 'The article.', schema: articleSchema },
        404: { description: 'No such article (`article_not_found`).' },
      },
      handler: async ({ params, res }) => {
        const article = await kb.get(params.slug);
        if (!article) throw articleNotFound(params.slug);
        res.json(article);
      },
    }),
    defineRoute({
      method: 'put',
      path: '/kb/articles/{slug}',
      summary: 'Create or replace an article (the same content again writes nothing).',
      params: slugParams,
      body: articleBodySchema,
      responses: {
        200: { description: 'Replaced, or unchanged.', schema: upsertAnswerSchema },
        201: { description: 'Created.', schema: upsertAnswerSchema },
        ...limitAnswers,
      },
      handler: async ({ params, body, res }) => {
        const result = await kb.upsert({ ...body, slug: params.slug }, { source: 'api' });
        res.status(result.outcome === 'created' ? 201 : 200).json(result);
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/kb/articles/{slug}',
      summary: 'Delete an article; it is never found by a search again.',
      params: slugParams,
      responses: {
        204: { description: 'Deleted.' },
        404: { description: 'No such article (`article_not_found`).' },
      },
      handler: async ({ params, res }) => {
        if (!(await kb.delete(params.slug))) throw articleNotFound(params.slug);
        res.status(204).end();
      },
    }),
    defineRoute({
      method: 'get',
      path: '/kb/search',
      summary: 'The passages that best answer a question, best first.',
      query: searchQuery,
      responses: {
        200: { description: 'The hits (none is not an error).', schema: searchAnswerSchema },
      },
      handler: async ({ query, res }) => {
        const hits = await kb.search(query.q, {
          limit: query.limit,
          ...(query.language ? { language: query.language } : {}),
        });
        res.json({ query: query.q, hits });
      },
    }),
  ];
}
