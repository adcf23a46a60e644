import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Cassette, stripSecretsFromPath } from './cassette.js';
import { usageOf, type TokenUsage } from './usage.js';

export type ProviderWire = 'openai' | 'gemini';

/** What the proxy saw of one provider request, for per-case tokens and for naming replay misses. */
export interface ProxiedCall {
  wire: ProviderWire;
  path: string;
  /** Every string in the request body, joined: the runner finds the case's text in it. */
  text: string;
  usage?: TokenUsage;
  /** Replay only: the request was not in the cassette. */
  miss: boolean;
}

export interface ProviderProxyOptions {
  wire: ProviderWire;
  /** `record` and `pass` forward to `upstream`; `replay` answers from the cassette alone. */
  mode: 'pass' | 'record' | 'replay';
  /** The provider's base URL (OpenAI's `…/v1`, Gemini's origin); unused in replay. */
  upstream?: string;
  /** The real key, added here: the services hold a dummy one, and nothing stored carries it. */
  apiKey?: string;
  cassette?: Cassette;
}

const AUTH_HEADERS = ['authorization', 'x-goog-api-key', 'api-key'];
const HOP_HEADERS = ['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive'];

function strings(value: unknown, out: string[]): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) value.forEach((v) => strings(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => strings(v, out));
  return out;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A small HTTP server between a service and its provider. It passes requests through (adding the
 * real key), records each request/answer pair in a cassette keyed by a hash of the request, or
 * replays them with no upstream at all: an unknown request gets a 400 in the provider's shape (not
 * retried by the SDKs) and is listed as a miss.
 */
export class ProviderProxy {
  readonly calls: ProxiedCall[] = [];
  private server?: Server;
  url = '';

  constructor(private readonly options: ProviderProxyOptions) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `eval proxy: ${(error as Error).message}` } }));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    let body: unknown = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      body = raw;
    }
    const call: ProxiedCall = {
      wire: this.options.wire,
      path: stripSecretsFromPath(path),
      text: strings(body, []).join('\n'),
      miss: false,
    };
    this.calls.push(call);

    if (this.options.mode === 'replay') {
      const stored = this.options.cassette?.replay(method, path, body);
      if (!stored) {
        call.miss = true;
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            error: {
              code: 400,
              message: 'eval replay: request not in the cassette',
              status: 'INVALID_ARGUMENT',
            },
          }),
        );
        return;
      }
      call.usage = usageOf(stored.content_type, stored.body);
      res.writeHead(stored.status, { 'content-type': stored.content_type });
      res.end(stored.body);
      return;
    }

    const upstream = await fetch(this.upstreamUrl(path), {
      method,
      headers: this.upstreamHeaders(req),
      body: method === 'GET' || method === 'HEAD' ? undefined : raw,
    });
    const text = await upstream.text();
    const contentType = upstream.headers.get('content-type') ?? 'application/json';
    call.usage = usageOf(contentType, text);
    if (this.options.mode === 'record') {
      this.options.cassette?.record(method, path, body, {
        status: upstream.status,
        content_type: contentType,
        body: text,
      });
    }
    const headers: Record<string, string> = { 'content-type': contentType };
    for (const name of ['retry-after', 'retry-after-ms']) {
      const value = upstream.headers.get(name);
      if (value) headers[name] = value;
    }
    res.writeHead(upstream.status, headers);
    res.end(text);
  }

  private upstreamUrl(path: string): string {
    const base = (this.options.upstream ?? '').replace(/\/+$/, '');
    return `${base}${stripSecretsFromPath(path)}`;
  }

  private upstreamHeaders(req: IncomingMessage): Record<string, string> {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (AUTH_HEADERS.includes(name) || HOP_HEADERS.includes(name) || value === undefined)
        continue;
      headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    // The answer is stored and replayed as text; a compressed one would be stored as bytes it cannot read.
    headers['accept-encoding'] = 'identity';
    const key = this.options.apiKey ?? 'eval-key';
    if (this.options.wire === 'openai') headers.authorization = `Bearer ${key}`;
    else headers['x-goog-api-key'] = key;
    return headers;
  }
}
