import type { ServerResponse } from 'node:http';
import type { Fault } from '../control/faults.js';
import { sendJson, sseEvent, sseHeaders } from './http-io.js';
import type { Reply } from './reply.js';

function serialise(reply: Extract<Reply, { kind: 'sse' }>): string[] {
  const events = reply.events.map(sseEvent);
  if (reply.done) events.push(sseEvent('[DONE]'));
  return events;
}

function destroyAfter(res: ServerResponse, chunk: string): void {
  res.write(chunk, () => res.socket?.destroy());
}

/** Closes the connection part-way through the response. */
function disconnect(res: ServerResponse, reply: Reply): void {
  if (reply.kind === 'sse') {
    sseHeaders(res);
    destroyAfter(res, serialise(reply)[0] ?? '');
    return;
  }
  const text = JSON.stringify(reply.body);
  res.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  destroyAfter(res, text.slice(0, Math.floor(text.length / 2)));
}

/** A 200 whose body is not valid JSON. */
function malformed(res: ServerResponse, reply: Reply): void {
  if (reply.kind === 'sse') {
    sseHeaders(res);
    res.end('data: {"id": "malformed", "choices": [{"index": 0,\n\n');
    return;
  }
  const text =
    '{"id": "malformed", "object": "chat.completion", "choices": [{"index": 0, "message": ';
  res.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** The reply with its first choice's message content replaced (JSON replies only). */
function withContent(reply: Reply, content: string): Reply {
  if (reply.kind !== 'json') return reply;
  const body = reply.body as { choices?: Array<{ message?: { content?: unknown } }> };
  const message = body.choices?.[0]?.message;
  if (message) message.content = content;
  return reply;
}

/**
 * Sends a reply, altered by a fault if one applies. Returns the status sent (0 when nothing is sent: a hang,
 * which lasts until the client gives up or the emulator closes).
 */
export function deliver(
  res: ServerResponse,
  reply: Reply,
  options: {
    fault: Fault | undefined;
    /** The provider's error body for a status fault. */
    errorBody: (status: number, message: string) => unknown;
    /** Pause between streamed events; 0 sends them at once. */
    chunkIntervalMs?: number;
  },
): number {
  const { fault, errorBody, chunkIntervalMs = 0 } = options;
  switch (fault?.kind) {
    case 'status': {
      const headers: Record<string, string> = {};
      const retryAfter = fault.retryAfterSeconds ?? (fault.status === 429 ? 0 : undefined);
      if (retryAfter !== undefined) {
        headers['retry-after'] = String(Math.ceil(retryAfter));
        headers['retry-after-ms'] = String(Math.round(retryAfter * 1000));
      }
      sendJson(
        res,
        fault.status,
        errorBody(fault.status, `Injected fault: status ${fault.status}`),
        headers,
      );
      return fault.status;
    }
    case 'hang':
      return 0;
    case 'disconnect':
      disconnect(res, reply);
      return 200;
    case 'malformed':
      malformed(res, reply);
      return 200;
    case 'content':
      reply = withContent(reply, fault.content);
      break;
    default:
      break;
  }
  if (reply.kind === 'json') {
    sendJson(res, reply.status, reply.body, reply.headers);
    return reply.status;
  }
  sseHeaders(res);
  if (chunkIntervalMs > 0) writeInSteps(res, serialise(reply), chunkIntervalMs);
  else res.end(serialise(reply).join(''));
  return 200;
}

/** One event now, the next after `intervalMs`, until the last ends the response (or the client left). */
function writeInSteps(res: ServerResponse, events: string[], intervalMs: number): void {
  const [first, ...rest] = events;
  if (res.destroyed) return;
  if (rest.length === 0) {
    res.end(first ?? '');
    return;
  }
  res.write(first);
  setTimeout(() => writeInSteps(res, rest, intervalMs), intervalMs).unref();
}
