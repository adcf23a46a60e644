import { getFunctionResponses, type Event } from '@google/adk';
import { checkCitations } from '@repo/knowledge';
import { z } from 'zod';
import { SEARCH_HELP_CENTER, retrievedPassageSchema } from '../tools/search-help-center.js';

/** An article an answer cites, as the chat page shows it: its title and the passages the answer read. */
export const sourceSchema = z.object({
  slug: z.string(),
  title: z.string(),
  text: z
    .string()
    .describe(
      'The passages of the article search_help_center returned in this turn (markdown, shown as text).',
    ),
});

export type Source = z.infer<typeof sourceSchema>;

/** What search_help_center returned in one turn, by slug: the articles an answer may cite. */
export class RetrievedArticles {
  private readonly articles = new Map<string, { title: string; passages: string[] }>();

  /** Reads the turn's search_help_center results from an ADK event. */
  collect(event: Event): void {
    for (const response of getFunctionResponses(event)) {
      if (response.name !== SEARCH_HELP_CENTER) continue;
      const passages = z
        .array(retrievedPassageSchema)
        .safeParse((response.response as { passages?: unknown } | undefined)?.passages);
      if (!passages.success) continue;
      for (const { slug, title, heading, text } of passages.data) {
        const article = this.articles.get(slug) ?? { title, passages: [] };
        article.passages.push(heading ? `${heading}\n\n${text}` : text);
        this.articles.set(slug, article);
      }
    }
  }

  source(slug: string): Source | undefined {
    const article = this.articles.get(slug);
    return article && { slug, title: article.title, text: article.passages.join('\n\n') };
  }
}

/**
 * Keeps a reply's `[kb:slug]` citations of articles search_help_center returned in its turn
 * (`sources`, in the order first cited) and removes the others (`removed`: made up, or remembered
 * from an earlier turn), so each names a passage given.
 */
export function checkReplyCitations(reply: string, retrieved: RetrievedArticles) {
  const checked = checkCitations(reply, (slug) => retrieved.source(slug));
  return { reply: checked.text, sources: checked.cited, removed: checked.removed };
}
