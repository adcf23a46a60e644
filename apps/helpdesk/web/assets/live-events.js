/**
 * A live event stream (GET /sessions/{id}/events, GET /operator/events) read with fetch, so it
 * can carry the page's headers. Each event has an id; after a drop the stream is opened again
 * with `Last-Event-ID`, so the service sends what was missed, once. Events with no id (`state`)
 * describe the present and come first on each connection.
 */
const RETRY_MS = 1_000;

function parseBlock(block) {
  let name = 'message';
  let id;
  const data = [];
  for (const line of block.split(/\r?\n/)) {
    if (line.startsWith(':')) continue;
    if (line.startsWith('event:')) name = line.slice(6).trim();
    else if (line.startsWith('id:')) id = line.slice(3).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
  }
  return data.length > 0 ? { name, id, data: JSON.parse(data.join('\n')) } : undefined;
}

/**
 * Follows `url` until `stop()`; `onEvent(name, data, id)` for each event, `onStatus('live' |
 * 'reconnecting')` as the connection comes and goes, `onRefused(status)` when the service says
 * no (then it stops: 401, 403, 404).
 */
export function followLiveEvents(url, { headers, onEvent, onStatus = () => {}, onRefused }) {
  let lastId;
  let stopped = false;
  let abort;
  const connect = async () => {
    while (!stopped) {
      abort = new AbortController();
      try {
        const response = await fetch(url, {
          headers: {
            ...headers(),
            accept: 'text/event-stream',
            ...(lastId ? { 'last-event-id': lastId } : {}),
          },
          signal: abort.signal,
        });
        if (response.status >= 400 && response.status < 500 && response.status !== 429) {
          stopped = true;
          onRefused?.(response.status);
          return;
        }
        if (!response.ok || !response.body) throw new Error(`answered ${response.status}`);
        onStatus('live');
        const reader = response.body.getReader();
        const decoder = new TextDecoder();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += decoder.decode(value, { stream: true });
          const blocks = buffer.split(/\r?\n\r?\n/);
          buffer = blocks.pop() ?? '';
          for (const block of blocks) {
            const event = parseBlock(block);
            if (!event) continue;
            if (event.id) lastId = event.id;
            onEvent(event.name, event.data, event.id ? Number(event.id) : undefined);
          }
        }
      } catch {
        // dropped, or the service is away: try again below
      }
      if (stopped) return;
      onStatus('reconnecting');
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  };
  void connect();
  return {
    stop() {
      stopped = true;
      abort?.abort();
    },
  };
}
