import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

// The public widget reaches a conversation by a secret the service gave it, never by the id alone
// (API and A2A ids are the callers' choice, often guessable). Only its SHA-256 is kept.

/** A new widget conversation's id: random, of the service's choosing. */
export const newWidgetSessionId = () => `web-${randomBytes(16).toString('hex')}`;

/** A new conversation's secret: 256 random bits, base64url (43 characters). */
export const newWidgetToken = () => randomBytes(32).toString('base64url');

const sha256 = (token: string) => createHash('sha256').update(token).digest();

/** What a session keeps of its secret: the SHA-256, in hex. */
export const widgetTokenSha256 = (token: string) => sha256(token).toString('hex');

/** Whether `presented` is the secret whose hash `kept` is (constant time); no hash matches nothing. */
export function holdsWidgetToken(kept: string | null | undefined, presented: string): boolean {
  if (!kept) return false;
  const expected = Buffer.from(kept, 'hex');
  const actual = sha256(presented);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
