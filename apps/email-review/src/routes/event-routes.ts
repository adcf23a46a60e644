import { defineRoute, EventStream, type Route } from '@repo/http-kit';
import { threadChangeSchema, type ChangeFeed } from '../changes/change-feed.js';

const EXAMPLE = [
  'event: thread.updated',
  'id: 42',
  'data: {"id":"42","type":"thread.updated","thread_id":"thr_…","status":"sent","revision":2,"delivery":"queued"}',
  '',
  ': keep-alive',
].join('\n');

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
      const stream = new EventStream(res, { heartbeatMs: options.heartbeatMs });
      stream.open();
      // The replay and the subscription happen in one tick: no change falls between them.
      const lastId = req.get('last-event-id');
      stream.write('retry: 2000\n\n');
      if (lastId) {
        const replay = feed.after(lastId);
        if ('gap' in replay) stream.send('reset', {});
        else for (const change of replay.changes) stream.send(change.type, change, change.id);
      }
      const unsubscribe = feed.subscribe(
        (change) => stream.send(change.type, change, change.id),
        () => stream.end(),
      );
      res.once('close', unsubscribe);
    },
  });
}
