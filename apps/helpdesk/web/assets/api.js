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

export function headers(extra = {}) {
  const token = readToken();
  return { ...extra, ...(token ? { authorization: `Bearer ${token}` } : {}) };
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

/** The session's transcript, or [] when the service does not know it (new, expired or deleted). */
export async function readTranscript(sessionId) {
  const response = await fetch(`sessions/${encodeURIComponent(sessionId)}`, {
    headers: headers({ accept: 'application/json' }),
  });
  if (response.status === 404) return [];
  if (!response.ok) throw await problemOf(response);
  return (await response.json()).turns;
}
