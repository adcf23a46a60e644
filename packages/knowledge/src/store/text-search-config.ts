/**
 * PostgreSQL's text search configurations (their stemmers and stop words) by language code, for the
 * configurations every supported PostgreSQL (13 and later) ships. Another language is searched with
 * `simple`: words lowercased, not stemmed.
 */
const CONFIGS: Record<string, string> = {
  ar: 'arabic',
  da: 'danish',
  de: 'german',
  el: 'greek',
  en: 'english',
  es: 'spanish',
  fi: 'finnish',
  fr: 'french',
  ga: 'irish',
  hu: 'hungarian',
  id: 'indonesian',
  it: 'italian',
  lt: 'lithuanian',
  nb: 'norwegian',
  ne: 'nepali',
  nl: 'dutch',
  nn: 'norwegian',
  no: 'norwegian',
  pt: 'portuguese',
  ro: 'romanian',
  ru: 'russian',
  sv: 'swedish',
  ta: 'tamil',
  tr: 'turkish',
};

/** The configuration for a language tag, by its primary subtag (`pt-br` → portuguese). */
export function textSearchConfig(language: string): string {
  const primary = language.toLowerCase().split('-')[0] ?? '';
  return CONFIGS[primary] ?? 'simple';
}
