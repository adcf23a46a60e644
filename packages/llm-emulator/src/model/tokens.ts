/** Rough token count (about four characters per token), enough for usage reporting and size comparisons. */
export function estimateTokens(chars: number): number {
  return Math.max(1, Math.ceil(chars / 4));
}
