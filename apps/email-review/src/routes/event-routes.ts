import { defineRoute, type Route } from '@repo/http-kit';
import type { ChangeFeed } from '../changes/change-feed.js';
import { threadChangeSchema, type ThreadChange } from '../changes/thread-change.js';

/** A comment line this often keeps proxies from closing an idle stream. */
export const DEFAULT_HEARTBEAT_MS = 15_000;
/**
 * Bytes a stream may have waiting for its client (beyond what the sockets hold). A client that
 * stopped reading is cut there instead of buffering every change for ever; it reconnects with
 * Last-Event-ID and resumes, or is told to reload.
 */
export const MAX_BUFFERED_BYTES = 1024 * 1024;

const EXAMPLE = [
  'event: thread.updated',
  'id: 42',
  'data: {"id":"42","type":"thread.updated","thread_id":"thr_…","status":"sent","revision":2,"delivery":"queued"}',
  '',
  ': keep-alive',
].join('\n');

const frame = (change: ThreadChange) =>
  `event: ${change.type}\nid: ${change.id}\ndata: ${JSON.stringify(change)}\n\n`;

/**
 * GET /events: thread changes as Server-Sent Events, from every instance. A client that
 * reconnects with `Last-Event-ID` first gets what it missed, if that is still in the instance's
 * window; otherwise a `reset` event tells it to reload the lists.
 */
export function eventsRoute(feed: ChangeFeed, options: { heartbeatMs?: number } = {}): Route {
  return defineRoute({
    method: 'get',
    path: '/events',
    summary: 'Thread changes as they commit (Server-Sent Events): thread.created, thread.updated',
    headers: {
      'Last-Event-ID': {
        description: 'Resume after this event (sent by EventSource on reconnect).',
      },
    },
    responses: {
      200: {
        description:
          'An endless `text/event-stream`: `thread.created` and `thread.updated` events (JSON data, `id:` lines), `reset` when a resume is older than the window, and `: keep-alive` comments.',
        schema: null,
        alternatives: {
          'text/event-stream': { schema: threadChangeSchema, example: EXAMPLE },
        },
      },
    },
    handler: ({ req, res }) => {
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        'x-accel-buffering': 'no',
      });
      const write = (chunk: string) => {
        if (res.writableEnded || res.destroyed) return;
        if (res.writableLength > MAX_BUFFERED_BYTES) res.destroy();
        else res.write(chunk);
      };
      // The replay and the subscription happen in one tick: no change falls between them.
      const lastId = req.get('last-event-id');
      let opening = 'retry: 2000\n\n';
      if (lastId) {
        const replay = feed.after(lastId);
        opening +=
          'gap' in replay ? 'event: reset\ndata: {}\n\n' : replay.changes.map(frame).join('');
      }
      write(opening);
      const unsubscribe = feed.subscribe(
        (change) => write(frame(change)),
        () => res.end(),
      );
      const heartbeat = setInterval(
        () => write(': keep-alive\n\n'),
        options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
      );
      res.once('close', () => {
        clearInterval(heartbeat);
        unsubscribe();
      });
    },
  });
}
