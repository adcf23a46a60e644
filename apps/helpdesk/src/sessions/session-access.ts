import { HttpError } from '@repo/http-kit';
import type { ApiCaller } from '../chat/api-caller.js';
import { holdsWidgetToken } from './widget-secret.js';

/**
 * How a request reaches a session: as a caller the API's auth let in, any session; as the public
 * widget, only a session the widget started, with the secret it was given then.
 */
export type SessionAccess = { caller: ApiCaller } | { widgetToken: string };

/** Whether `access` (none: the service's own work) may reach a session keeping `kept` (a hash). */
export const mayReach = (access: SessionAccess | undefined, kept: string | null | undefined) =>
  !access || !('widgetToken' in access) || holdsWidgetToken(kept, access.widgetToken);

/** 404, the same for a session that does not exist and one the request may not reach. */
export const sessionNotFound = (sessionId: string) =>
  new HttpError(404, 'session_not_found', `No session ${sessionId}.`, {
    extra: { session_id: sessionId },
  });
