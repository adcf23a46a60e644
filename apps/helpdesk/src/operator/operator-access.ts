import { currentActor, HttpError } from '@repo/http-kit';

/**
 * Who may use the console: the named callers in OPERATORS (token names of API_TOKENS, or a
 * JWT's email/subject, as http-kit names the request's actor). A service without auth is open to
 * anyone, the console included (its operator is then `operator`). The public widget never gets
 * here: console routes are not among its open routes, so without a token they answer 401.
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
