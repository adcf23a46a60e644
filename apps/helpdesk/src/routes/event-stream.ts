import type { Response } from 'express';
import type { TurnEventSink } from '../chat/stream-turn.js';

/** A comment line this often keeps proxies from closing an idle stream. */
export const DEFAULT_HEARTBEAT_MS = 15_000;

/**
 * A Server-Sent Events response: each event with its `event:` name, a sequential `id:` and one
 * line of JSON `data:`, and a comment line every `heartbeatMs`. Once the client has gone, writes
 * are dropped: nothing here throws into the turn that feeds it.
 */
export class ServerSentEvents implements TurnEventSink {
  private nextId = 1;
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(
    private readonly res: Response,
    private readonly heartbeatMs = DEFAULT_HEARTBEAT_MS,
  ) {}

  open(): void {
    if (this.gone) return;
    this.res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      // nginx buffers responses unless told not to.
      'x-accel-buffering': 'no',
    });
    this.res.flushHeaders();
    this.heartbeat = setInterval(() => this.write(': keep-alive\n\n'), this.heartbeatMs);
    this.res.once('close', () => clearInterval(this.heartbeat));
  }

  send(event: string, data: unknown): void {
    this.write(`event: ${event}\nid: ${this.nextId++}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  end(): void {
    clearInterval(this.heartbeat);
    if (!this.gone) this.res.end();
  }

  private get gone(): boolean {
    return this.res.writableEnded || this.res.destroyed;
  }

  private write(chunk: string): void {
    if (!this.gone) this.res.write(chunk);
  }
}
