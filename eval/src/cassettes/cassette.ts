import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** A provider's answer as stored: status, content type and the body exactly as it came (SSE included). */
export interface StoredResponse {
  status: number;
  content_type: string;
  body: string;
}

/** One request (secrets stripped) and every answer it got, in order. */
export interface Exchange {
  key: string;
  method: string;
  path: string;
  request: unknown;
  responses: StoredResponse[];
}

/** Sorted keys, so that the same request always hashes the same whatever its field order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The path with any `key=` query parameter (Gemini's API key) removed. */
export function stripSecretsFromPath(path: string): string {
  const url = new URL(path, 'http://cassette.invalid');
  url.searchParams.delete('key');
  return `${url.pathname}${url.search}`;
}

/**
 * Values the services make up at random that flow into later requests (a ticket id in a tool's
 * result, a UUID): the key sees them as placeholders, or no replay could ever match.
 */
const VOLATILE_VALUES: Array<[RegExp, string]> = [
  [/\bTCK-[A-Z0-9]{4,}\b/g, 'TCK-<id>'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
];

/** The cassette key: a SHA-256 of the method, the path without secrets and the canonical JSON body. */
export function requestKey(method: string, path: string, body: unknown): string {
  let text = `${method.toUpperCase()} ${stripSecretsFromPath(path)}\n${canonical(body)}`;
  for (const [pattern, placeholder] of VOLATILE_VALUES) text = text.replace(pattern, placeholder);
  return createHash('sha256').update(text).digest('hex');
}

/** The exchanges of one recording, kept in a JSONL file sorted by key (stable diffs). */
export class Cassette {
  private readonly exchanges = new Map<string, Exchange>();
  private readonly served = new Map<string, number>();

  constructor(readonly file: string) {}

  static load(file: string): Cassette {
    const cassette = new Cassette(file);
    if (!existsSync(file)) return cassette;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const exchange = JSON.parse(line) as Exchange;
      cassette.exchanges.set(exchange.key, exchange);
    }
    return cassette;
  }

  get size(): number {
    return this.exchanges.size;
  }

  record(method: string, path: string, request: unknown, response: StoredResponse): void {
    const key = requestKey(method, path, request);
    const existing = this.exchanges.get(key);
    if (existing) existing.responses.push(response);
    else
      this.exchanges.set(key, {
        key,
        method: method.toUpperCase(),
        path: stripSecretsFromPath(path),
        request,
        responses: [response],
      });
  }

  /** The next stored answer to this request (the last one again once all were served), or undefined. */
  replay(method: string, path: string, request: unknown): StoredResponse | undefined {
    const key = requestKey(method, path, request);
    const exchange = this.exchanges.get(key);
    if (!exchange) return undefined;
    const index = this.served.get(key) ?? 0;
    this.served.set(key, index + 1);
    return exchange.responses[Math.min(index, exchange.responses.length - 1)];
  }

  save(): void {
    mkdirSync(dirname(this.file), { recursive: true });
    const lines = [...this.exchanges.values()]
      .sort((a, b) => (a.key < b.key ? -1 : 1))
      .map((exchange) => JSON.stringify(exchange));
    writeFileSync(this.file, lines.length ? `${lines.join('\n')}\n` : '');
  }
}
