import { checkCitations, type SearchHit } from '@repo/knowledge';
import { z } from 'zod';

export const GROUNDING_STATUSES = ['grounded', 'none'] as const;

export const citedArticleSchema = z.object({
  slug: z.string(),
  title: z.string(),
  passage: z
    .string()
    .describe(
      'The passages of the article the drafter was given (markdown source, shown as text, never as HTML).',
    ),
});

/** What a model draft rests on: the help center articles it cites, checked against what was retrieved. */
export const groundingSchema = z
  .object({
    status: z
      .enum(GROUNDING_STATUSES)
      .describe(
        '`grounded`: the draft cites at least one article retrieved for this email; `none`: it cites none (no article matched, or the model used none), so it rests on nothing the help center says.',
      ),
    articles: z
      .array(citedArticleSchema)
      .describe(
        'The cited articles, in the order first cited, with the passages the drafter read.',
      ),
    removed_citations: z
      .array(z.string())
      .describe(
        'Slugs the model cited that were not retrieved for this draft: removed from the draft text.',
      ),
  })
  .describe(
    'The help center grounding of the latest model draft (null without a help center: no article stored).',
  );

export type Grounding = z.infer<typeof groundingSchema>;

/** The passages retrieved for a draft, by article: what a citation may name. */
function retrievedArticles(passages: readonly SearchHit[]) {
  const articles = new Map<string, { title: string; passages: string[] }>();
  for (const hit of passages) {
    const article = articles.get(hit.slug) ?? { title: hit.title, passages: [] };
    article.passages.push(hit.heading ? `${hit.heading}\n\n${hit.passage}` : hit.passage);
    articles.set(hit.slug, article);
  }
  return articles;
}

/**
 * Keeps a draft's `[kb:slug]` citations of articles retrieved for it and removes the others (a slug
 * the model made up, or one from an earlier draft): a citation the reviewer sees always names a
 * passage the drafter was given.
 */
export function groundDraft(
  draft: string,
  passages: readonly SearchHit[],
): { draft: string; grounding: Grounding } {
  const retrieved = retrievedArticles(passages);
  const checked = checkCitations(draft, (slug) => {
    const article = retrieved.get(slug);
    return article && { slug, title: article.title, passage: article.passages.join('\n\n') };
  });
  return {
    draft: checked.text,
    grounding: {
      status: checked.cited.length > 0 ? 'grounded' : 'none',
      articles: checked.cited,
      removed_citations: checked.removed,
    },
  };
}
