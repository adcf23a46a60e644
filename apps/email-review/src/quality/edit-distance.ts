import { distance } from 'fastest-levenshtein';

/**
 * Levenshtein distance over the longer text's length: 0 for equal texts, 1 for nothing in common.
 * Line endings and runs of spaces are folded first, so an editor's re-wrapping counts for nothing.
 */
export function normalizedEditDistance(from: string, to: string): number {
  const a = foldSpaces(from);
  const b = foldSpaces(to);
  const longest = Math.max(a.length, b.length);
  return longest === 0 ? 0 : distance(a, b) / longest;
}

const foldSpaces = (text: string) =>
  text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+/g, ' ')
    .trim();
