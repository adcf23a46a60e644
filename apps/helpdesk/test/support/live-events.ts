import { createParser } from 'eventsource-parser';
import { waitFor } from './harness.js';

export interface LiveEvent {
  event: string;
  id: string | undefined;
  data: Record<string, unknown>;
}

/** A live event stream (GET /sessions/{id}/events, GET /operator/events) read as it arrives. */
export interface LiveEvents {
  status: number;
  events: LiveEvent[];
  /** The id of the last event with one (what a reconnect sends as Last-Event-ID). */
  lastId(): string | undefined;
  next(type: string, count?: number, timeoutMs?: number): Promise<LiveEvent[]>;
  /** Resolves when the connection ends (the server went away, or close()). */
  ended: Promise<void>;
  close(): void;
}

export async function openLiveEvents(
  url: string,
  headers: Record<string, string> = {},
): Promise<LiveEvents> {
  const abort = new AbortController();
  const res = await fetch(url, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: abort.signal,
  });
  const events: LiveEvent[] = [];
  const parser = createParser({
    onEvent: (event) =>
      events.push({
        event: event.event ?? 'message',
        id: event.id,
        data: JSON.parse(event.data) as Record<string, unknown>,
      }),
  });
  const decoder = new TextDecoder();
  const ended = (async () => {
    if (!res.body) return;
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        parser.feed(decoder.decode(chunk, { stream: true }));
      }
    } catch {
      // closed by us, or the server died
    }
  })();
  const ofType = (type: string) => events.filter((e) => e.event === type);
  return {
    status: res.status,
    events,
    lastId: () => events.filter((e) => e.id !== undefined).at(-1)?.id,
    next: async (type, count = 1, timeoutMs = 10_000) => {
      await waitFor(() => ofType(type).length >= count, timeoutMs, `${count} ${type} event(s)`);
      return ofType(type);
    },
    ended,
    close: () => abort.abort(),
  };
}
