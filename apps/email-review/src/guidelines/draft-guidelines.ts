import { scopesFor, type UsedGuideline } from './guideline.js';
import type { GuidelineStore } from './guideline-store.js';

/** The most guidelines one draft's prompt carries. */
export const GUIDELINES_PER_DRAFT = 8;

/** What the draft step asks: the guidelines for an email's sender, domain and category, in order. */
export interface DraftGuidelines {
  forDraft(email: { from: string | null; category: string | null }): Promise<UsedGuideline[]>;
}

export function draftGuidelines(store: GuidelineStore): DraftGuidelines {
  return {
    async forDraft({ from, category }) {
      const chosen = await store.forDraft(scopesFor(from, category), GUIDELINES_PER_DRAFT);
      return chosen.map(({ id, rule }) => ({ id, rule }));
    },
  };
}

/** The guidelines as the draft prompt gives them (nothing when there are none). */
export function guidelinesSection(guidelines: readonly UsedGuideline[] | undefined): string {
  if (!guidelines?.length) return '';
  return (
    '\n\nReviewer guidelines for this customer (learned from our reviewers’ edits; follow them):\n' +
    guidelines.map((g) => `- ${g.rule}`).join('\n')
  );
}
