/* global URLSearchParams */
import { forgetToken, readToken } from './token.js';

/** A failed call, carrying the problem-details `code` and `detail` the service answered with. */
export class ApiError extends Error {
  constructor(status, code, detail, problem = {}) {
    super(detail);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    /** The problem's other fields, e.g. the current `revision` of a `revision_mismatch`. */
    this.problem = problem;
  }
}

let askForToken = async () => {
  throw new ApiError(401, 'unauthorized', 'A valid API token is required.');
};
let pendingPrompt;

/** `prompt(reason)` resolves once the reviewer has given a token (stored by then). */
export function onTokenNeeded(prompt) {
  askForToken = prompt;
}

async function send(method, path, body, extraHeaders = {}) {
  const headers = { accept: 'application/json', ...extraHeaders };
  const token = readToken();
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  try {
    return await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(
      0,
      'network_error',
      'The service could not be reached. Check the connection and try again.',
    );
  }
}

async function request(method, path, body, headers) {
  let response = await send(method, path, body, headers);
  // A 401 is answered before the service does anything, so asking for a token and repeating the
  // call is safe even for the POSTs. Parallel calls share one prompt.
  while (response.status === 401) {
    const hadToken = readToken() !== '';
    forgetToken();
    pendingPrompt ??= askForToken(
      hadToken ? 'That token was not accepted. Enter a valid API token.' : undefined,
    ).finally(() => {
      pendingPrompt = undefined;
    });
    await pendingPrompt;
    response = await send(method, path, body, headers);
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    throw new ApiError(
      response.status,
      data?.code ?? `http_${response.status}`,
      data?.detail ?? `The service answered with status ${response.status}.`,
      data ?? {},
    );
  }
  return data;
}

/** If-Match of the revision shown (the thread's ETag). */
const seen = (revision) => ({ 'if-match': `"${revision}"` });

const threadPath = (id, action = '') =>
  `threads/${encodeURIComponent(id)}${action ? `/${action}` : ''}`;

export const api = {
  /** `filters`: `category` (a configured one) and `grounding` (`none`: flagged drafts), each optional. */
  listThreads(status, cursor, filters = {}) {
    const query = new URLSearchParams({ status, limit: '50' });
    if (cursor) query.set('cursor', cursor);
    if (filters.category) query.set('category', filters.category);
    if (filters.grounding) query.set('grounding', filters.grounding);
    return request('GET', `threads?${query}`);
  },
  /** The categories and urgencies the service classifies with (its support profile's). */
  getLabels: () => request('GET', 'labels'),
  getThread: (id) => request('GET', threadPath(id)),
  getHistory: (id) => request('GET', threadPath(id, 'history')),
  // Each change names the revision the reviewer is looking at: the service refuses it (412) when the
  // draft has changed since, instead of acting on a draft the reviewer never saw.
  saveDraft: (id, revision, draft) =>
    request('POST', threadPath(id, 'edit'), { draft }, seen(revision)),
  redraft: (id, revision, instructions) =>
    request('POST', threadPath(id, 'edit'), { instructions }, seen(revision)),
  /** `to`: the reviewer's recipient; without it the service replies to the thread's sender. */
  approve: (id, revision, to) =>
    request('POST', threadPath(id, 'approve'), to ? { to } : {}, seen(revision)),
  /** `reason`: one of the service's reasons (counted in GET /quality); `note`: free text. Both kept in the history. */
  reject: (id, revision, reason, note) =>
    request(
      'POST',
      threadPath(id, 'reject'),
      { ...(reason ? { reason } : {}), ...(note ? { note } : {}) },
      seen(revision),
    ),
  retry: (id) => request('POST', threadPath(id, 'retry'), {}),
  /** `to`: a recipient for a reply that had none (`no_recipient`); a failed one is queued as it was. */
  redeliver: (id, to) => request('POST', threadPath(id, 'redeliver'), to ? { to } : {}),
  /** The guidelines learned from reviewers, with their provenance. */
  listGuidelines: () => request('GET', 'guidelines'),
  /** `change`: `{ rule }` and/or `{ enabled }`. */
  updateGuideline: (id, change) => request('PATCH', `guidelines/${encodeURIComponent(id)}`, change),
  deleteGuideline: (id) => request('DELETE', `guidelines/${encodeURIComponent(id)}`),
  getQuality: () => request('GET', 'quality'),
};
