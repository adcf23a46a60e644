/** `[kb:slug]` as a model writes it; a space inside is tolerated, and removed with the rest. */
const CITATION = /\s?\[kb:\s*([^\]\s]*)\s*\]/g;

export interface CheckedCitations<T> {
  /** The text with the citations of unknown slugs removed (unchanged when there were none). */
  text: string;
  /** What `known` gave for each slug kept, in the order first cited, once each. */
  cited: T[];
  /** The slugs cited that `known` did not know, in the order cited, removed from the text. */
  removed: string[];
}

/**
 * Keeps a model's `[kb:slug]` citations of what it was given and removes the others (a slug it made
 * up, or one it remembered from earlier), so that every citation a reader sees names a passage the
 * model read. `known(slug)` says what was retrieved under a slug, undefined when nothing was.
 */
export function checkCitations<T>(
  text: string,
  known: (slug: string) => T | undefined,
): CheckedCitations<T> {
  const cited = new Map<string, T>();
  const removed: string[] = [];
  const kept = text.replace(CITATION, (citation, slug: string) => {
    const found = known(slug);
    if (found === undefined) {
      removed.push(slug);
      return '';
    }
    if (!cited.has(slug)) cited.set(slug, found);
    return citation;
  });
  return {
    // A removed citation before a full stop leaves no space before it.
    text: removed.length > 0 ? kept.replace(/ +([.,;:!?])/g, '$1').trim() : text,
    cited: [...cited.values()],
    removed,
  };
}
