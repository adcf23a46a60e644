/* global TextDecoderStream */
import { readToken } from './token.js';

const RECONNECT_MS = 2000;

/** One SSE block (`event:`, `id:`, `data:` lines; `:` comments ignored) as { event, id, data }. */
function parseBlock(block) {
  const message = { event: 'message', id: undefined, data: '' };
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') message.event = value;
    else if (field === 'id') message.id = value;
    else if (field === 'data') message.data += message.data ? `\n${value}` : value;
  }
  return message;
}

/**
 * Follows GET /events with the inbox's own token (EventSource cannot send an Authorization
 * header, so this reads the stream with fetch). Each thread change goes to `onChange`; after a
 * reconnect it resumes with Last-Event-ID, and `onReset` runs when the service could not replay
 * what was missed (or the stream was refused), so the page reloads its lists instead.
 */
export function followChanges({ onChange, onReset }) {
  let lastId;
  let running = false;
  const connect = async () => {
    const headers = { accept: 'text/event-stream' };
    const token = readToken();
    if (token) headers.authorization = `Bearer ${token}`;
    if (lastId) headers['last-event-id'] = lastId;
    const response = await fetch('events', { headers });
    if (!response.ok || !response.body) throw new Error(`events: ${response.status}`);
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value.replace(/\r\n?/g, '\n');
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const message = parseBlock(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
        if (message.id !== undefined) lastId = message.id;
        if (message.event === 'reset') onReset();
        else if (message.event.startsWith('thread.')) onChange(JSON.parse(message.data));
      }
    }
  };
  return {
    /** Starts following (once); the stream is reopened whenever it ends or fails. */
    start() {
      if (running) return;
      running = true;
      void (async () => {
        for (;;) {
          try {
            await connect();
          } catch {
            // Refused (e.g. the token was forgotten) or the service is away: try again shortly.
          }
          await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS));
          if (!lastId) onReset();
        }
      })();
    },
  };
}
