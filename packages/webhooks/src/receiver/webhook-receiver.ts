import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** A delivery the receiver accepted, its signature verified by the standardwebhooks package. */
export interface ReceivedWebhook {
  id: string;
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
  /** 1 for the first request carrying this webhook-id, 2 for its first repeat, … */
  attempt: number;
}

/** How to answer one request: a status, or `hang` (never answer). */
export type ReceiverAnswer = number | 'hang';

/**
 * A real HTTP endpoint on loopback for tests and the bench. Every request is verified with the
 * standardwebhooks package (not the services' own signing path); a request that fails
 * verification is counted in `rejected` and answered 401. Answers follow `script` (one per
 * request, in order), then `fallback`.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  /** Every request, accepted or not, in arrival order (its webhook-id). */
  readonly requests: string[] = [];
  rejected = 0;
  script: ReceiverAnswer[] = [];
  fallback: ReceiverAnswer = 204;
  private readonly server: http.Server;
  private readonly hanging = new Set<http.ServerResponse>();
  private readonly verifier: Webhook;
  private readonly waiters = new Set<() => void>();
  private readonly seen = new Map<string, number>();

  private constructor(readonly secret: string) {
    this.verifier = new Webhook(secret);
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => this.answer(req, res, Buffer.concat(chunks).toString('utf8')));
    });
  }

  /** Listens on 127.0.0.1 at a free port. */
  static async start(
    secret = `whsec_${Buffer.from('test-receiver-secret-0123').toString('base64')}`,
  ) {
    const receiver = new WebhookReceiver(secret);
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  /** Deliveries of one type (first attempts and repeats alike). */
  ofType(type: string): ReceivedWebhook[] {
    return this.received.filter((hook) => hook.type === type);
  }

  /** Resolves once `test` holds, checked on every request; rejects after `timeoutMs`. */
  async until(
    test: () => boolean,
    timeoutMs = 20_000,
    what = 'the expected webhooks',
  ): Promise<void> {
    if (test()) return;
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!test()) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(
          new Error(
            `timed out waiting for ${what}; got ${JSON.stringify(this.received.map((h) => h.type))}`,
          ),
        );
      }, timeoutMs);
      this.waiters.add(check);
    });
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private answer(req: http.IncomingMessage, res: http.ServerResponse, body: string) {
    const id = String(req.headers['webhook-id'] ?? '');
    this.requests.push(id);
    this.seen.set(id, (this.seen.get(id) ?? 0) + 1);
    let envelope: { type: string; timestamp: string; data: Record<string, unknown> };
    try {
      envelope = this.verifier.verify(
        body,
        req.headers as Record<string, string>,
      ) as typeof envelope;
    } catch {
      this.rejected += 1;
      res.writeHead(401).end();
      this.notify();
      return;
    }
    const answer = this.script.shift() ?? this.fallback;
    if (answer === 'hang') {
      this.hanging.add(res);
      this.notify();
      return;
    }
    if (answer >= 200 && answer < 300) {
      this.received.push({
        id,
        type: envelope.type,
        timestamp: envelope.timestamp,
        data: envelope.data,
        attempt: this.seen.get(id) ?? 1,
      });
    }
    res.writeHead(answer).end();
    this.notify();
  }

  private notify() {
    for (const waiter of [...this.waiters]) waiter();
  }
}
