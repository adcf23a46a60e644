import { createParser, type EventSourceMessage } from 'eventsource-parser';

export interface ReadEvent {
  event: string;
  id: string | undefined;
  data: Record<string, unknown>;
  /** Milliseconds from the request to this event's arrival. */
  atMs: number;
}

export interface StreamedChat {
  status: number;
  contentType: string;
  /** The body when the answer was not a stream (a problem). */
  body?: Record<string, unknown>;
  events: ReadEvent[];
  comments: string[];
}

export interface StreamOptions {
  /** Stop reading and close the connection after this many events. */
  disconnectAfter?: number;
  apiToken?: string;
}

/** POST /chat asking for an event stream, read with a real SSE parser as the bytes arrive. */
export async function streamChat(
  baseUrl: string,
  sessionId: string,
  message: string,
  options: StreamOptions = {},
): Promise<StreamedChat> {
  const started = performance.now();
  const abort = new AbortController();
  const res = await fetch(`${baseUrl}/chat`, {
    method: 'POST',
    headers: {
      accept: 'text/event-stream',
      'content-type': 'application/json',
      ...(options.apiToken ? { authorization: `Bearer ${options.apiToken}` } : {}),
    },
    body: JSON.stringify({ session_id: sessionId, message }),
    signal: abort.signal,
  });
  const contentType = res.headers.get('content-type') ?? '';
  if (!contentType.startsWith('text/event-stream')) {
    return {
      status: res.status,
      contentType,
      body: (await res.json()) as Record<string, unknown>,
      events: [],
      comments: [],
    };
  }
  const events: ReadEvent[] = [];
  const comments: string[] = [];
  const parser = createParser({
    onEvent: (event: EventSourceMessage) =>
      events.push({
        event: event.event ?? 'message',
        id: event.id,
        data: JSON.parse(event.data) as Record<string, unknown>,
        atMs: performance.now() - started,
      }),
    onComment: (comment) => comments.push(comment),
  });
  const decoder = new TextDecoder();
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      parser.feed(decoder.decode(chunk, { stream: true }));
      if (options.disconnectAfter !== undefined && events.length >= options.disconnectAfter) {
        abort.abort();
        break;
      }
    }
  } catch (error) {
    if (!abort.signal.aborted) throw error;
  }
  return { status: res.status, contentType, events, comments };
}
