/**
 * JSON that PostgreSQL's jsonb accepts: it refuses NUL (`\u0000`) and unpaired surrogates, which
 * a model's output may contain (client text is refused at the edge instead). Strings lose NULs
 * and have lone surrogates replaced by U+FFFD, so a turn never fails at its one write.
 */
export function storableJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    typeof item === 'string' ? item.replaceAll('\u0000', '').replace(/\p{Cs}/gu, '\uFFFD') : item,
  );
}
