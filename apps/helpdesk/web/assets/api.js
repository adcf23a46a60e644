import { webStorage } from './web-storage.js';

// sessionStorage: a token lives only as long as this tab.
const TOKEN_KEY = 'helpdesk.api-token';

/** A failed request, with the problem-details code and detail the service answered. */
export class ApiError extends Error {
  constructor(status, code, detail, problem = {}) {
    super(detail);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.problem = problem;
  }
}

const tokens = webStorage('sessionStorage');

export const readToken = () => tokens.getItem(TOKEN_KEY) ?? '';
export const storeToken = (token) => tokens.setItem(TOKEN_KEY, token);
export const forgetToken = () => tokens.removeItem(TOKEN_KEY);

/** The request's headers: the bearer token if the tab has one, and the conversation's secret. */
export function headers(extra = {}, session = undefined) {
  const token = readToken();
  return {
    ...extra,
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...(session?.token ? { 'x-widget-token': session.token } : {}),
  };
}

export async function problemOf(response) {
  let body = {};
  try {
    body = await response.json();
  } catch {
    // not JSON: the status says enough
  }
  return new ApiError(
    response.status,
    body.code ?? 'http_error',
    body.detail ?? `The service answered ${response.status}.`,
    body,
  );
}

/** A new conversation the service starts: `{ id, token }` (its secret, sent with each request). */
export async function startConversation() {
  const response = await fetch('widget/sessions', {
    method: 'POST',
    headers: headers({ accept: 'application/json' }),
  });
  if (!response.ok) throw await problemOf(response);
  const body = await response.json();
  return { id: body.session_id, token: body.widget_token };
}

/**
 * The conversation as GET /sessions/{id} has it (`turns`, and `events_cursor` where its live
 * events continue), or undefined when the service does not know it (expired or deleted).
 */
export async function readConversation(session) {
  const response = await fetch(`sessions/${encodeURIComponent(session.id)}`, {
    headers: headers({ accept: 'application/json' }, session),
  });
  if (response.status === 404) return undefined;
  if (!response.ok) throw await problemOf(response);
  return response.json();
}

/** The conversation's transcript, or undefined when the service does not know it (expired or deleted). */
export async function readTranscript(session) {
  return (await readConversation(session))?.turns;
}
