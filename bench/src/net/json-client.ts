import { Agent, request } from 'node:http';

export interface JsonResponse {
  status: number;
  body: unknown;
}

export class HttpStatusError extends Error {
  constructor(
    readonly method: string,
    readonly url: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`${method} ${url} answered ${status}: ${JSON.stringify(body).slice(0, 300)}`);
  }
}

/**
 * A minimal keep-alive JSON client over node:http. Every system under test is driven by this same
 * client, so its own cost (smaller than fetch's) weighs equally on both sides of a ratio.
 */
export class JsonClient {
  private readonly agent: Agent;

  constructor(
    readonly baseUrl: string,
    maxSockets = 64,
    private readonly headers: Record<string, string> = {},
  ) {
    this.agent = new Agent({ keepAlive: true, maxSockets });
  }

  send(method: string, path: string, body?: unknown): Promise<JsonResponse> {
    const url = new URL(path, this.baseUrl);
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    return new Promise((resolve, reject) => {
      const req = request(
        url,
        {
          method,
          agent: this.agent,
          headers: {
            accept: 'application/json',
            ...this.headers,
            ...(payload
              ? { 'content-type': 'application/json', 'content-length': payload.length }
              : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown = text;
            try {
              parsed = text.length ? JSON.parse(text) : null;
            } catch {
              // not JSON: keep the text for the error message
            }
            resolve({ status: res.statusCode ?? 0, body: parsed });
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** Sends and throws HttpStatusError unless the status is one of `expected`. */
  async expect(method: string, path: string, body: unknown, expected: number[]): Promise<unknown> {
    const res = await this.send(method, path, body);
    if (!expected.includes(res.status))
      throw new HttpStatusError(method, path, res.status, res.body);
    return res.body;
  }

  close(): void {
    this.agent.destroy();
  }
}
