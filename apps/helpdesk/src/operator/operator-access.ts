import { currentActor, HttpError } from '@repo/http-kit';

/**
 * Who may use the console: the callers named in OPERATORS (as http-kit names the request's actor),
 * or anyone when the service has no auth (the operator is then `operator`).
 */
export type OperatorRoster = ReadonlySet<string> | 'open';

export function requireOperator(roster: OperatorRoster): string {
  const actor = currentActor();
  if (roster === 'open') return actor === 'anonymous' || actor === 'system' ? 'operator' : actor;
  if (!roster.has(actor)) {
    throw new HttpError(403, 'not_an_operator', 'This token does not belong to an operator.');
  }
  return actor;
}
