/**
 * Writes that ride in another statement as its CTEs: they write only when the statement's `guard`
 * CTE (a compare-and-set) has a row, and take their parameters from `$first` on.
 */
export interface StatementPart {
  ctes(guard: string, first: number): string;
  params: unknown[];
}
