import type { KnowledgeBase } from './knowledge-base.js';
import {
  citedSentences,
  citedSlugs,
  detectLanguage,
  editSimilarity,
  mentions,
  overlap,
} from './text.js';

/** What a reply must and must not say (a case's, or a turn's, expectations). */
export interface ReplyExpectations {
  kb_cites: string[];
  facts: string[];
  forbidden: string[];
  golden_reply?: string | undefined;
}

/** The deterministic checks of one reply. */
export interface ReplyChecks {
  cited: string[];
  /** Cited slugs the help center does not have. */
  invalid_citations: string[];
  expected_cites_found: number;
  expected_cites: number;
  /** Sentences carrying a citation, and those whose words mostly (≥ 60 %) come from the cited passages. */
  cited_sentences: number;
  grounded_sentences: number;
  facts_found: number;
  facts: number;
  missing_facts: string[];
  forbidden_hits: string[];
  language: string | null;
  similarity: number | null;
}

/** Phrases no reply may contain whatever the case: promises a support reply cannot make. */
export const ALWAYS_FORBIDDEN = [
  'I guarantee',
  'we guarantee',
  'I promise',
  'we promise',
  'full refund immediately',
  'refund you today',
];

export const GROUNDED_OVERLAP = 0.6;

/**
 * Checks a reply against its expectations. `passages` are the texts the service said the reply
 * drew on (by slug); without them the cited articles' whole text stands in.
 */
export function checkReply(
  reply: string,
  expected: ReplyExpectations,
  kb: KnowledgeBase,
  passages?: Map<string, string>,
): ReplyChecks {
  const cited = citedSlugs(reply);
  const sentences = citedSentences(reply).filter((s) => s.slugs.length > 0);
  const grounded = sentences.filter((s) => {
    const source = s.slugs.map((slug) => passages?.get(slug) ?? kb.get(slug) ?? '').join('\n');
    return overlap(s.sentence, source) >= GROUNDED_OVERLAP;
  });
  const missingFacts = expected.facts.filter((fact) => !mentions(reply, fact));
  return {
    cited,
    invalid_citations: cited.filter((slug) => !kb.has(slug)),
    expected_cites_found: expected.kb_cites.filter((slug) => cited.includes(slug)).length,
    expected_cites: expected.kb_cites.length,
    cited_sentences: sentences.length,
    grounded_sentences: grounded.length,
    facts_found: expected.facts.length - missingFacts.length,
    facts: expected.facts.length,
    missing_facts: missingFacts,
    forbidden_hits: [...ALWAYS_FORBIDDEN, ...expected.forbidden].filter((phrase) =>
      mentions(reply, phrase),
    ),
    language: detectLanguage(reply),
    similarity: expected.golden_reply ? editSimilarity(reply, expected.golden_reply) : null,
  };
}
