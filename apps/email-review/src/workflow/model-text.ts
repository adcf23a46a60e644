/**
 * Text taken from a model or a raw email, made safe to store before anything keeps it:
 * PostgreSQL's jsonb (the checkpoint, the thread index) refuses NUL and unpaired surrogates, and a
 * cut at a count of UTF-16 units can split a surrogate pair. Lone surrogates and NUL are dropped;
 * cuts count code points.
 */
export function storableText(text: string): string {
  // Each alternative matches a well-formed pair or a lone half; only the lone ones are dropped.
  const withoutLoneHalves = text.replace(
    /[\uD800-\uDBFF][\uDC00-\uDFFF]|[\uD800-\uDFFF]/g,
    (match) => (match.length === 2 ? match : ''),
  );
  return withoutLoneHalves.replaceAll('\0', '');
}

/** At most `max` code points of storable text, with an ellipsis (counted) when something was cut. */
export function cutToCodePoints(text: string, max: number): string {
  const points = Array.from(storableText(text));
  if (points.length <= max) return points.join('');
  return `${points
    .slice(0, max - 1)
    .join('')
    .trimEnd()}…`;
}
