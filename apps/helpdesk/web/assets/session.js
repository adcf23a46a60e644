/* global crypto */
import { webStorage } from './web-storage.js';

// The conversation's session id survives a reload in localStorage, stored once its first message
// is sent (an id never used has no transcript to read); a new conversation draws another.
const KEY = 'helpdesk.session-id';

function newSessionId() {
  // getRandomValues works outside secure contexts too (randomUUID does not).
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `web-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

const store = webStorage('localStorage');

/** The stored conversation's id, or undefined when this browser has none yet. */
export const storedSessionId = () => store.getItem(KEY) ?? undefined;

/** The id a first message will start a conversation under. */
export const draftSessionId = () => newSessionId();

export function rememberSession(id) {
  store.setItem(KEY, id);
}

export function forgetSession() {
  store.removeItem(KEY);
}
