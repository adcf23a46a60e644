import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Provider } from '../control/faults.js';
import type { LoggedRequest } from '../control/request-log.js';
import { geminiError } from '../gemini/gemini-errors.js';
import { openAiError } from '../openai/openai-errors.js';
import { adminRoute } from './admin-routes.js';
import { deliver } from './deliver.js';
import { BodyTooLarge, readBody, sendJson, waitBeforeReply } from './http-io.js';
import { providerRoute } from './provider-routes.js';
import { BadRequest, type Reply } from './reply.js';
import type { EmulatorState } from './state.js';

const ERROR_BODY: Record<Provider, (status: number, message: string) => unknown> = {
  openai: openAiError,
  gemini: geminiError,
};

function hasKey(provider: Provider, req: IncomingMessage, query: URLSearchParams): boolean {
  const bearer = /^Bearer\s+\S+/i.test(req.headers.authorization ?? '');
  if (provider === 'openai') return bearer;
  const header = req.headers['x-goog-api-key'];
  return (
    bearer ||
    (typeof header === 'string' && header.trim() !== '') ||
    (query.get('key') ?? '') !== ''
  );
}

function parseJson(raw: Buffer): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(raw.toString('utf8')) as unknown };
  } catch {
    return { ok: false };
  }
}

/** The request pipeline: route, log, authenticate, parse, decide, then apply faults and latency and send. */
export async function handleRequest(
  state: EmulatorState,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://emulator');
  const path = url.pathname;
  const method = req.method ?? 'GET';
  if (path.startsWith('/_emulator/') || path === '/healthz')
    return adminRoute(state, req, res, path);

  const route = providerRoute(method, path, url.searchParams);
  if (!route)
    return sendJson(res, 404, { error: { code: 404, message: `Unknown path: ${method} ${path}` } });
  const errorBody = ERROR_BODY[route.provider];
  const fail = (status: number, message: string) => {
    entry.status = status;
    sendJson(res, status, errorBody(status, message));
  };

  let raw: Buffer = Buffer.alloc(0);
  let tooLarge = false;
  if (method === 'POST' || method === 'PUT') {
    try {
      raw = await readBody(req);
    } catch (err) {
      if (!(err instanceof BodyTooLarge)) throw err;
      tooLarge = true;
    }
  }
  const parsed = raw.length > 0 ? parseJson(raw) : ({ ok: true, value: undefined } as const);
  const entry: LoggedRequest = {
    provider: route.provider,
    method,
    path,
    ...(route.model ? { model: route.model } : {}),
    body: parsed.ok ? parsed.value : raw.toString('utf8'),
    status: 0,
    at: new Date().toISOString(),
  };
  state.log.record(entry, raw.length);

  if (!route.run) return fail(404, `Unknown request URL: ${method} ${path}`);
  if (!hasKey(route.provider, req, url.searchParams)) {
    return fail(
      401,
      route.provider === 'openai'
        ? 'Missing bearer authentication in header'
        : "Method doesn't allow unregistered callers. Please use an API key.",
    );
  }
  if (tooLarge) return fail(413, 'Request body too large');
  if (!parsed.ok || (route.needsBody && parsed.value === undefined))
    return fail(400, 'Request body is not valid JSON');

  let reply: Reply;
  try {
    const result = route.run(parsed.value, raw.length);
    reply = result.reply;
    if (result.model) entry.model = result.model;
  } catch (err) {
    if (err instanceof BadRequest) return fail(400, err.message);
    throw err;
  }

  const fault = state.faults.take({ provider: route.provider, path, model: entry.model });
  const wait = state.latencyMs + (fault?.kind === 'delay' ? fault.delayMs : 0);
  if (wait > 0) await waitBeforeReply(wait, res);
  if (res.destroyed) return;
  entry.status = deliver(res, reply, { fault, errorBody, chunkIntervalMs: state.chunkIntervalMs });
}
