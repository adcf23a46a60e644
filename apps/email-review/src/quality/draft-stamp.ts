import { createHash } from 'node:crypto';
import { z } from 'zod';
import { usedGuidelineSchema } from '../guidelines/guideline.js';

/** What produced a model draft: kept on the thread, counted in the quality figures. */
export const draftStampSchema = z.object({
  model: z.string(),
  pipeline_version: z
    .string()
    .describe('A hash of the prompts, the retrieval settings and the guideline selection.'),
  at: z.iso.datetime().describe('When the model drafted it (the decision time counts from here).'),
  text: z.string().describe('The model’s draft, before any reviewer edit.'),
  redrafted: z.boolean().describe('Drafted again with the reviewer’s instructions.'),
  guidelines: z
    .array(usedGuidelineSchema)
    .describe('The reviewer guidelines its prompt carried, in the order given.'),
});
export type DraftStamp = z.infer<typeof draftStampSchema>;

/**
 * The pipeline version: what shapes a draft besides the model — the prompts, how passages are
 * retrieved, how guidelines are chosen — hashed, so a change to any of them starts new figures.
 */
export function pipelineVersion(parts: {
  prompts: { classify: string; draft: string; redraft: (instructions: string) => string };
  retrieval: Record<string, unknown>;
  guidelines: Record<string, unknown>;
}): string {
  const described = JSON.stringify({
    classify: parts.prompts.classify,
    draft: parts.prompts.draft,
    redraft: parts.prompts.redraft('{instructions}'),
    retrieval: parts.retrieval,
    guidelines: parts.guidelines,
  });
  return `p-${createHash('sha256').update(described).digest('hex').slice(0, 12)}`;
}
