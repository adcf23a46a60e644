import { distance } from 'fastest-levenshtein';

const CITATION = /\[kb:([a-z0-9][a-z0-9-]*)\]/g;

/** The help center slugs a reply cites as `[kb:slug]`, in order, each once. */
export function citedSlugs(text: string): string[] {
  return [...new Set([...text.matchAll(CITATION)].map((m) => m[1]!))];
}

/**
 * The reply's sentences with the citations each carries. A citation written after a sentence's
 * full stop ("… ordered. [kb:refund-policy] Is there …") belongs to the sentence before it.
 */
export function citedSentences(text: string): Array<{ sentence: string; slugs: string[] }> {
  const parts = text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((part) => part.trim())
    .filter(Boolean);
  const out: Array<{ sentence: string; slugs: string[] }> = [];
  for (const part of parts) {
    const leading = /^((?:\[kb:[a-z0-9-]+\]\s*)+)/.exec(part);
    if (leading && out.length > 0) out[out.length - 1]!.slugs.push(...citedSlugs(leading[1]!));
    const rest = leading ? part.slice(leading[0].length).trim() : part;
    if (rest) out.push({ sentence: rest.replace(CITATION, '').trim(), slugs: citedSlugs(rest) });
  }
  return out.filter((s) => s.sentence.length > 0 || s.slugs.length > 0);
}

const STOPWORDS = new Set(
  'the a an and or but of to in on at for with from by is are was were be been it its this that these those you your we our us i me my he she they them their as if so not no do does did can could will would should have has had there here what which who how when where why all any some more most than then also just only into about over after before very please'.split(
    ' ',
  ),
);

/** Lower-case words of 3+ letters or digits, minus common English function words, markdown dropped. */
export function contentWords(text: string): string[] {
  return (
    text
      .toLowerCase()
      .normalize('NFKC')
      .match(/[\p{L}\p{N}]+/gu) ?? []
  ).filter((word) => word.length >= 3 && !STOPWORDS.has(word));
}

/** Share of the sentence's content words that the passages contain (1 when it has none). */
export function overlap(sentence: string, passages: string): number {
  const words = contentWords(sentence);
  if (words.length === 0) return 1;
  const pool = new Set(contentWords(passages));
  return words.filter((word) => pool.has(word)).length / words.length;
}

/** Similarity of two texts, 1 − Levenshtein distance / the longer length, on normalised whitespace and case. */
export function editSimilarity(a: string, b: string): number {
  const norm = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();
  const [x, y] = [norm(a), norm(b)];
  const longest = Math.max(x.length, y.length);
  return longest === 0 ? 1 : 1 - distance(x, y) / longest;
}

/** Case-insensitive substring test, whitespace normalised. */
export function mentions(text: string, phrase: string): boolean {
  const norm = (value: string) => value.toLowerCase().replace(/\s+/g, ' ');
  return norm(text).includes(norm(phrase));
}

const LANGUAGE_CUES: Record<string, string[]> = {
  en: ['the', 'and', 'you', 'your', 'for', 'with', 'thank', 'please', 'is', 'we', 'have', 'can'],
  de: [
    'der',
    'die',
    'das',
    'und',
    'sie',
    'ihre',
    'ihr',
    'nicht',
    'ist',
    'wir',
    'mit',
    'für',
    'bitte',
    'vielen',
    'dank',
    'ich',
  ],
  fr: [
    'le',
    'la',
    'les',
    'et',
    'vous',
    'votre',
    'pour',
    'est',
    'nous',
    'avec',
    'merci',
    'une',
    'des',
    'je',
    'pas',
  ],
  es: [
    'el',
    'los',
    'las',
    'y',
    'usted',
    'su',
    'para',
    'está',
    'nosotros',
    'con',
    'gracias',
    'una',
    'por',
    'que',
    'mi',
  ],
  nl: ['de', 'het', 'en', 'u', 'uw', 'voor', 'is', 'wij', 'met', 'bedankt', 'een', 'niet', 'ik'],
};

/**
 * The language a text is most likely in, by counting common words of each (en, de, fr, es, nl);
 * null when it has none. Crude, but stable on replies of a few sentences.
 */
export function detectLanguage(text: string): string | null {
  const words = text.toLowerCase().match(/[\p{L}]+/gu) ?? [];
  let best: string | null = null;
  let bestScore = 0;
  for (const [language, cues] of Object.entries(LANGUAGE_CUES)) {
    const cueSet = new Set(cues);
    const score = words.filter((word) => cueSet.has(word)).length;
    if (score > bestScore) [best, bestScore] = [language, score];
  }
  return best;
}
