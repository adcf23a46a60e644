/**
 * Text from a model or a raw email, made storable: PostgreSQL's jsonb refuses NUL and unpaired
 * surrogates, so those are dropped, and cuts count code points so no pair is split.
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
