import type { Provider } from './faults.js';

export interface LoggedRequest {
  provider: Provider;
  method: string;
  path: string;
  model?: string;
  body: unknown;
  /** The status sent; 0 while no response has been sent (e.g. a hanging request). */
  status: number;
  at: string;
}

/**
 * The most recent provider requests. Bounded by count and by total body size so that long benchmark runs
 * keep a flat memory profile.
 */
export class RequestLog {
  private entries: Array<{ entry: LoggedRequest; bytes: number }> = [];
  private bytes = 0;

  constructor(
    private readonly maxEntries = 10_000,
    private readonly maxBytes = 64 * 1024 * 1024,
  ) {}

  record(entry: LoggedRequest, bodyBytes: number): LoggedRequest {
    this.entries.push({ entry, bytes: bodyBytes });
    this.bytes += bodyBytes;
    while (
      this.entries.length > this.maxEntries ||
      (this.bytes > this.maxBytes && this.entries.length > 1)
    ) {
      this.bytes -= this.entries.shift()?.bytes ?? 0;
    }
    return entry;
  }

  list(): LoggedRequest[] {
    return this.entries.map((e) => ({ ...e.entry }));
  }

  clear(): void {
    this.entries = [];
    this.bytes = 0;
  }
}
