import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { currentActor, HttpError } from '@repo/http-kit';
import type { Caller } from '../tools/caller.js';

/** A caller the API's own auth let in: anyone but the public widget. */
type ApiCaller = Exclude<Caller, { kind: 'widget' }>;

/**
 * How a request reaches a session: as a caller the API's auth let in, any session; as the public
 * widget, only a session the widget started, by the secret it was given then, never by the id
 * alone (API and A2A ids are the callers' choice, often guessable). Only its SHA-256 is kept.
 */
export type SessionAccess = { caller: ApiCaller } | { widgetToken: string };

/**
 * The current request's caller as http-kit authenticated it, or `operator` when nothing was asked
 * (an open service's `anonymous`, `system` outside requests). Never the public widget's.
 */
export function apiCaller(): ApiCaller {
  const actor = currentActor();
  return actor === 'anonymous' || actor === 'system'
    ? { kind: 'operator' }
    : { kind: 'client', name: actor };
}

/** A new widget conversation's id: random, of the service's choosing. */
export const newWidgetSessionId = () => `web-${randomBytes(16).toString('hex')}`;

/** A new conversation's secret: 256 random bits, base64url (43 characters). */
export const newWidgetToken = () => randomBytes(32).toString('base64url');

const sha256 = (token: string) => createHash('sha256').update(token).digest();

/** What a session keeps of its secret: the SHA-256, in hex. */
export const widgetTokenSha256 = (token: string) => sha256(token).toString('hex');

/** Whether `presented` is the secret whose hash `kept` is (constant time); no hash matches nothing. */
function holdsWidgetToken(kept: string | null | undefined, presented: string): boolean {
  if (!kept) return false;
  const expected = Buffer.from(kept, 'hex');
  const actual = sha256(presented);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** Whether `access` (none: the service's own work) may reach a session keeping `kept` (a hash). */
export const mayReach = (access: SessionAccess | undefined, kept: string | null | undefined) =>
  !access || !('widgetToken' in access) || holdsWidgetToken(kept, access.widgetToken);

/** 404, the same for a session that does not exist and one the request may not reach. */
export const sessionNotFound = (sessionId: string) =>
  new HttpError(404, 'session_not_found', `No session ${sessionId}.`, {
    extra: { session_id: sessionId },
  });
