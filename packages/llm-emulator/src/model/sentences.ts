/** `text` ending in exactly one full stop: "found." stays, "found" gains one; never "found..". */
export function asSentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?…]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** `text` cut to `max` characters with an ellipsis (one character, so a reply never holds ".."). */
export function cutWithEllipsis(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

/** "a", "a or b", "a, b or c". */
export function joinWithOr(items: string[], conjunction = 'or'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${items[items.length - 1]}`;
}
