import { ApiError, headers, problemOf } from './api.js';

/** Splits a text/event-stream into events: `event:` names them, `data:` is one JSON line. */
function eventParser(onEvent) {
  let buffer = '';
  return (chunk) => {
    buffer += chunk;
    const blocks = buffer.split(/\r?\n\r?\n/);
    buffer = blocks.pop() ?? '';
    for (const block of blocks) {
      let name = 'message';
      const data = [];
      for (const line of block.split(/\r?\n/)) {
        if (line.startsWith(':')) continue;
        if (line.startsWith('event:')) name = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (data.length > 0) onEvent(name, JSON.parse(data.join('\n')));
    }
  };
}

/**
 * POST /chat as an event stream. Resolves with `{ outcome: 'done' | 'error', data }` once the turn
 * ends; rejects with `{ dropped: true, opened }` when the connection breaks first (`opened`: the
 * service had started the turn), or with an ApiError when the service refused the message.
 */
export async function streamTurn(session, message, onEvent) {
  let response;
  try {
    response = await fetch('chat', {
      method: 'POST',
      headers: headers(
        { accept: 'text/event-stream', 'content-type': 'application/json' },
        session,
      ),
      body: JSON.stringify({ session_id: session.id, message }),
    });
  } catch {
    throw { dropped: true, opened: false };
  }
  const type = response.headers.get('content-type') ?? '';
  if (!type.startsWith('text/event-stream')) {
    if (response.ok) throw new ApiError(response.status, 'unexpected', 'Unexpected answer.');
    throw await problemOf(response);
  }
  let end;
  const feed = eventParser((name, data) => {
    if (name === 'done' || name === 'error') end = { outcome: name, data };
    else onEvent(name, data);
  });
  const decoder = new TextDecoder();
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      feed(decoder.decode(value, { stream: true }));
      if (end) break;
    }
  } catch {
    // the connection broke mid-stream: handled below like an early end
  }
  if (!end) throw { dropped: true, opened: true };
  return end;
}
