import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { resolveTarget, TargetRefused } from './target-address.js';

export interface AttemptRequest {
  url: string;
  secret: string;
  /** `webhook-id`: the same on every attempt of a delivery, so receivers can drop repeats. */
  messageId: string;
  body: string;
  timeoutMs: number;
  allowPrivate: boolean;
  now?: () => Date;
}

/** What one attempt came to; `retry` says whether another attempt may succeed. */
export type AttemptResult =
  | { kind: 'delivered'; status: number }
  | { kind: 'retry'; status?: number; error: string }
  | { kind: 'stop'; status?: number; error: string };

/** 2xx delivered; 408, 429 and 5xx are worth another try; any other answer will not change. */
export function classifyStatus(status: number): AttemptResult {
  if (status >= 200 && status < 300) return { kind: 'delivered', status };
  if (status === 408 || status === 429 || status >= 500) {
    return { kind: 'retry', status, error: `HTTP ${status}` };
  }
  return { kind: 'stop', status, error: `HTTP ${status}` };
}

/** Targets whose connections are kept at most; beyond it the least recently used one is let go. */
export const MAX_KEPT_TARGETS = 64;

/**
 * Keep-alive connections per target: the key holds the address the host was resolved to, so a
 * socket is only ever reused for the address that was checked. A Map in use order, bounded: an
 * endpoint whose DNS answer moves would otherwise leave an agent behind for every address it
 * ever had. A target let go is not destroyed: its requests in flight finish, and its idle sockets
 * close at their timeout.
 */
const agents = new Map<string, http.Agent>();

function agentFor(url: URL, target: { address: string; family: number }): http.Agent {
  const key = `${url.protocol}//${url.host}@${target.address}`;
  let agent = agents.get(key);
  if (agent) agents.delete(key);
  else {
    const options = { keepAlive: true, maxSockets: 64, maxFreeSockets: 16, timeout: 30_000 };
    agent = url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
    if (agents.size >= MAX_KEPT_TARGETS) agents.delete(agents.keys().next().value as string);
  }
  agents.set(key, agent);
  return agent;
}

/**
 * One signed POST. The host is resolved once (resolveTarget) and the socket connects to that
 * address through `lookup`, while the URL's host still names the request (Host header, TLS SNI
 * and certificate check): a DNS answer that changes between the check and the connect (DNS
 * rebinding) is never used. The whole attempt, connect to the end of the answer, has one deadline.
 * Connections are kept alive between attempts; a kept connection the receiver closed just as it
 * was reused is tried once more on a new one (Node's `reusedSocket` advice).
 */
export async function sendAttempt(request: AttemptRequest): Promise<AttemptResult> {
  const url = new URL(request.url);
  let target;
  try {
    target = await resolveTarget(url, request.allowPrivate);
  } catch (error) {
    if (error instanceof TargetRefused) return { kind: 'stop', error: error.message };
    return { kind: 'retry', error: `dns: ${(error as Error).message}` };
  }
  const sentAt = (request.now ?? (() => new Date()))();
  const signature = new Webhook(request.secret).sign(request.messageId, sentAt, request.body);
  const timestamp = Math.floor(sentAt.getTime() / 1000);
  const pinned: LookupFunction = (_host, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  const post = (agent: http.Agent | false) =>
    new Promise<AttemptResult | 'reset'>((resolve) => {
      const req = client.request(url, {
        method: 'POST',
        agent,
        lookup: pinned,
        timeout: request.timeoutMs,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(request.body),
          'user-agent': 'ai-services-webhooks/1',
          'webhook-id': request.messageId,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signature,
        },
      });
      const deadline = setTimeout(() => {
        const message = `timed out after ${request.timeoutMs} ms`;
        req.destroy(new Error(message));
        // Settled here too: a request the socket's close already destroyed emits nothing more.
        resolve({ kind: 'retry', error: message });
      }, request.timeoutMs);
      req.on('response', (res) => {
        // The answer's body is not read for meaning; it is drained so the socket can be reused.
        res.resume();
        res.on('end', () => {
          clearTimeout(deadline);
          resolve(classifyStatus(res.statusCode ?? 0));
        });
        res.on('error', () => undefined);
        // A receiver that closes before its answer's end (a short body): no 'end', no request error.
        res.on('close', () => {
          if (res.complete) return;
          clearTimeout(deadline);
          resolve({ kind: 'retry', status: res.statusCode, error: 'the answer was cut short' });
        });
      });
      req.on('timeout', () => req.destroy(new Error(`timed out after ${request.timeoutMs} ms`)));
      req.on('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(deadline);
        if (req.reusedSocket && error.code === 'ECONNRESET') resolve('reset');
        else resolve({ kind: 'retry', error: error.message });
      });
      req.end(request.body);
    });
  const result = await post(agentFor(url, target));
  return result === 'reset' ? ((await post(false)) as AttemptResult) : result;
}
