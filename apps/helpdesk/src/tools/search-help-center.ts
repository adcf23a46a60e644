import type { ToolOptions } from '@google/adk';
import { MAX_QUERY_CHARS, type SearchHit } from '@repo/knowledge';
import { z } from 'zod';

export const SEARCH_HELP_CENTER = 'search_help_center';

/** How the tool searches: the knowledge base's search (observed for its latency by the caller). */
export type HelpCenterSearch = (query: string) => Promise<SearchHit[]>;

const searchHelpCenterParameters = z.object({
  query: z
    .string()
    .min(1)
    .max(MAX_QUERY_CHARS)
    .describe('The customer’s question, in their words.'),
});

/** One passage as the model reads it: the slug it cites as [kb:slug]. */
export const retrievedPassageSchema = z.object({
  slug: z.string(),
  title: z.string(),
  heading: z.string().nullable(),
  text: z.string(),
});

/** Passages the model reads per search: enough to answer, few enough to keep prompts small. */
const PASSAGES_PER_SEARCH = 3;

/** Built into a FunctionTool for the billing and technical specialists (agents/specialists.ts). */
export const searchHelpCenterTool = (
  search: HelpCenterSearch,
): ToolOptions<typeof searchHelpCenterParameters> => ({
  name: SEARCH_HELP_CENTER,
  description:
    'Searches the help center’s articles and returns the passages that best answer a question, ' +
    'each with its article’s slug and title; cite an article used as [kb:slug].',
  parameters: searchHelpCenterParameters,
  execute: async ({ query }) => {
    const hits = (await search(query)).slice(0, PASSAGES_PER_SEARCH);
    if (hits.length === 0) {
      return {
        query,
        passages: [],
        message:
          'No help center article answers this. Say that you do not know, and offer to open a ' +
          'ticket so that a person answers.',
      };
    }
    const passages = hits.map(({ slug, title, heading, passage }) => ({
      slug,
      title,
      heading,
      text: passage,
    }));
    return { query, passages };
  },
});
