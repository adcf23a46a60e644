const STOPWORDS = new Set(
  (
    'the a an and or but if of to in on at for with about from by as is are was were be been am i you he she it we they ' +
    'me my your our their this that these those what which who whom how when where why can could would should will ' +
    'do does did have has had not no yes please thanks hi hello dear there here just any all some agent handles ' +
    'questions question answers answer user users customer customers request requests use used using'
  ).split(' '),
);

/** Lower-cased words of a text, pre-computed once so keyword scoring stays cheap. */
export interface TextIndex {
  lower: string;
  words: string[];
  /** Written mostly in capitals, as advertising shouts ("BUY CHEAP WATCHES NOW"). */
  shouted: boolean;
}

function isShouted(text: string): boolean {
  const upper = text.match(/[A-Z]/g)?.length ?? 0;
  const lower = text.match(/[a-z]/g)?.length ?? 0;
  return upper >= 10 && upper > 3 * lower;
}

export function indexText(text: string): TextIndex {
  const lower = text.toLowerCase();
  return { lower, words: lower.match(/[a-z0-9]+/g) ?? [], shouted: isShouted(text) };
}

/** Words that carry meaning: splits snake_case / camelCase / kebab-case names too. */
export function contentWords(text: string): string[] {
  const spaced = text.replace(/([a-z])([A-Z])/g, '$1 $2');
  return (spaced.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter(
    (w) => w.length >= 3 && !STOPWORDS.has(w),
  );
}

/**
 * Whether a cue occurs in the text. Short cues (≤3 chars, e.g. "api", "500") must match a whole word
 * (plural allowed); longer single-word cues match as a word prefix ("charge" → "charged"); phrases match as substrings.
 */
export function hasCue(text: TextIndex, cue: string): boolean {
  if (/[^a-z0-9]/.test(cue)) return text.lower.includes(cue);
  if (cue.length <= 3) return text.words.some((w) => w === cue || w === `${cue}s`);
  return text.words.some((w) => w.startsWith(cue));
}

/** Shared stem so "invoices" matches "invoice" and "charges" matches "charged". */
export function sameStem(a: string, b: string): boolean {
  if (a === b) return true;
  const n = Math.min(a.length, b.length);
  if (n < 4) return false;
  const stem = Math.max(4, n - 2);
  return a.slice(0, stem) === b.slice(0, stem);
}
