import type { UsedGuideline } from './guideline.js';

/** The most guidelines one draft's prompt carries. */
export const GUIDELINES_PER_DRAFT = 8;

/** What the draft step asks: the guidelines for an email's sender, domain and category, in order. */
export interface DraftGuidelines {
  forDraft(email: { from: string | null; category: string | null }): Promise<UsedGuideline[]>;
}

/** The guidelines as the draft prompt gives them (nothing when there are none). */
export function guidelinesSection(guidelines: readonly UsedGuideline[] | undefined): string {
  if (!guidelines?.length) return '';
  return (
    '\n\nReviewer guidelines for this customer (learned from our reviewers’ edits; follow them):\n' +
    guidelines.map((g) => `- ${g.rule}`).join('\n')
  );
}
