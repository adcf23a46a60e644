import { createParser, type EventSourceMessage } from 'eventsource-parser';

export interface StreamedEvent {
  event: string;
  id: string | undefined;
  data: Record<string, unknown>;
}

/** GET /events read with a real SSE parser as the bytes arrive, until closed. */
export interface EventStream {
  status: number;
  events: StreamedEvent[];
  comments: string[];
  /** Resolves once `test` holds on the events so far (checked on every event); rejects after `timeoutMs`. */
  until(
    test: (events: StreamedEvent[]) => boolean,
    what: string,
    timeoutMs?: number,
  ): Promise<void>;
  close(): void;
  /** Resolves when the stream has ended (closed by the server, or by close()). */
  ended: Promise<void>;
}

export async function openEventStream(
  baseUrl: string,
  options: { apiToken?: string; lastEventId?: string } = {},
): Promise<EventStream> {
  const abort = new AbortController();
  const res = await fetch(`${baseUrl}/events`, {
    headers: {
      accept: 'text/event-stream',
      ...(options.apiToken ? { authorization: `Bearer ${options.apiToken}` } : {}),
      ...(options.lastEventId ? { 'last-event-id': options.lastEventId } : {}),
    },
    signal: abort.signal,
  });
  const events: StreamedEvent[] = [];
  const comments: string[] = [];
  const waiters = new Set<() => void>();
  const parser = createParser({
    onEvent: (message: EventSourceMessage) => {
      events.push({
        event: message.event ?? 'message',
        id: message.id,
        data: JSON.parse(message.data) as Record<string, unknown>,
      });
      for (const waiter of [...waiters]) waiter();
    },
    onComment: (comment) => {
      comments.push(comment.trim());
      // A wait may be for a comment (the keep-alive): check it on comments too, not only on events.
      for (const waiter of [...waiters]) waiter();
    },
  });
  let ended: Promise<void> = Promise.resolve();
  if (res.ok && res.body) {
    ended = (async () => {
      const decoder = new TextDecoder();
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          parser.feed(decoder.decode(chunk, { stream: true }));
        }
      } catch {
        // Closed by the test (abort) or by the server going away.
      }
    })();
  }
  return {
    status: res.status,
    events,
    comments,
    until: (test, what, timeoutMs = 15_000) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!test(events)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out waiting for ${what}; got ${JSON.stringify(events)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    close: () => abort.abort(),
    ended,
  };
}
