import { webStorage } from './web-storage.js';

// The conversation survives a reload in localStorage: its id, and the secret the service gave
// this browser for it (what reaches it when the widget is public, without a token). Both are
// stored once the service has started the conversation.
const ID_KEY = 'helpdesk.session-id';
const TOKEN_KEY = 'helpdesk.widget-token';

const store = webStorage('localStorage');

/** The stored conversation, `{ id, token }`, or undefined when this browser has none yet. */
export function storedSession() {
  const id = store.getItem(ID_KEY);
  return id ? { id, token: store.getItem(TOKEN_KEY) ?? '' } : undefined;
}

export function rememberSession(session) {
  store.setItem(ID_KEY, session.id);
  store.setItem(TOKEN_KEY, session.token);
}

export function forgetSession() {
  store.removeItem(ID_KEY);
  store.removeItem(TOKEN_KEY);
}
