import { HttpError } from '@repo/http-kit';
import { holdsWidgetToken } from './widget-secret.js';

/**
 * How a request reaches a session: through the API (its auth let it in), any session; as the public
 * widget, only a session the widget started, with the secret it was given then.
 */
export type WidgetProof = { widgetToken: string } | undefined;

/** Whether a request with `proof` may reach a session that keeps `kept` (its secret's hash, if any). */
export const mayReach = (proof: WidgetProof, kept: string | null | undefined): boolean =>
  proof === undefined || holdsWidgetToken(kept, proof.widgetToken);

/** 404, the same for a session that does not exist and one the request may not reach. */
export const sessionNotFound = (sessionId: string) =>
  new HttpError(404, 'session_not_found', `No session ${sessionId}.`, {
    extra: { session_id: sessionId },
  });
