import type { ServerResponse } from 'node:http';

/** A comment line this often keeps proxies from closing an idle stream. */
export const DEFAULT_HEARTBEAT_MS = 15_000;
/**
 * Bytes a stream may have waiting for its client (beyond what the sockets hold). A client that
 * stopped reading is cut there instead of buffering every event for ever; it reconnects (with
 * Last-Event-ID) and resumes.
 */
export const MAX_BUFFERED_BYTES = 1024 * 1024;

export interface EventStreamOptions {
  /** A comment line this often (default 15 s). */
  heartbeatMs?: number;
  /** Each event without an id of its own gets the next of 1, 2, 3… */
  numbered?: boolean;
}

/**
 * A Server-Sent Events response: its headers, a comment line every `heartbeatMs`, and events as
 * `event:`, `id:` and one line of JSON `data:`. Once the client has gone writes are dropped, so
 * nothing here throws into what feeds the stream; a client past MAX_BUFFERED_BYTES behind is cut.
 */
export class EventStream {
  private heartbeat: NodeJS.Timeout | undefined;
  private lastId = 0;

  constructor(
    private readonly res: ServerResponse,
    private readonly options: EventStreamOptions = {},
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
    this.heartbeat = setInterval(
      () => this.write(': keep-alive\n\n'),
      this.options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
    );
    this.res.once('close', () => clearInterval(this.heartbeat));
  }

  send(event: string, data: unknown, id?: string | number): void {
    const eventId = id ?? (this.options.numbered ? (this.lastId += 1) : undefined);
    const idLine = eventId === undefined ? '' : `id: ${eventId}\n`;
    this.write(`event: ${event}\n${idLine}data: ${JSON.stringify(data)}\n\n`);
  }

  /** Raw lines (`retry:`, several frames at once), under the same cap. */
  write(chunk: string): void {
    if (this.gone) return;
    if (this.res.writableLength > MAX_BUFFERED_BYTES) this.res.destroy();
    else this.res.write(chunk);
  }

  end(): void {
    clearInterval(this.heartbeat);
    if (!this.gone) this.res.end();
  }

  get gone(): boolean {
    return this.res.writableEnded || this.res.destroyed;
  }
}
