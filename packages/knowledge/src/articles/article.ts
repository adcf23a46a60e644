import { createHash } from 'node:crypto';
import { z } from 'zod';

/** Lowercase words joined by hyphens: safe in a URL, a file name and a log line. */
export const slugSchema = z
  .string()
  .min(1)
  .max(120)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'A slug is lowercase letters and digits joined by hyphens.')
  .describe('The article’s stable id, e.g. `refund-policy`.');

/** A BCP 47 tag as people write it (`en`, `de`, `pt-BR`), kept lowercase so `pt-BR` and `pt-br` are one language. */
export const languageSchema = z
  .string()
  .regex(/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/, 'A language is a code such as en, de or pt-BR.')
  .transform((tag) => tag.toLowerCase())
  .describe('The article’s language (BCP 47, e.g. `en`, `de`); it picks the stemming of search.');

/** What a caller gives to create or replace an article. */
export const articleInputSchema = z.strictObject({
  slug: slugSchema,
  title: z.string().trim().min(1).max(200),
  body: z.string().min(1).describe('Markdown.'),
  language: languageSchema.default('en'),
  tags: z.array(z.string().trim().min(1).max(50)).max(20).default([]),
});

export type ArticleInput = z.input<typeof articleInputSchema>;
export type ArticleFields = z.output<typeof articleInputSchema>;

/**
 * Where an article came from: a help center folder's file, or the API. A folder load deletes only
 * the `file` articles no file holds, never those written through the API.
 */
export const articleSourceSchema = z
  .enum(['file', 'api'])
  .describe('`file`: a help center folder holds it; `api`: written through the API.');

export type ArticleSource = z.infer<typeof articleSourceSchema>;

export const articleSchema = z.object({
  slug: z.string(),
  title: z.string(),
  body: z.string(),
  language: z.string(),
  tags: z.array(z.string()),
  updated_at: z.string().describe('When the article was last created or replaced (ISO 8601).'),
  hash: z
    .string()
    .describe('SHA-256 of its title, body, language and tags: unchanged content keeps it.'),
  source: articleSourceSchema,
});

export type Article = z.infer<typeof articleSchema>;

/** An article in a listing: everything but its body. */
export const articleSummarySchema = articleSchema.omit({ body: true });
export type ArticleSummary = z.infer<typeof articleSummarySchema>;

/** The content's fingerprint: what upsert compares to leave an unchanged article unwritten. */
export function contentHash(fields: ArticleFields): string {
  const { title, body, language, tags } = fields;
  return createHash('sha256')
    .update(JSON.stringify([title, body, language, tags]))
    .digest('hex');
}

export const summaryOf = ({ body: _body, ...summary }: Article): ArticleSummary => summary;
