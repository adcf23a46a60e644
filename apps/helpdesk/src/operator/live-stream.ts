import type { Request, Response } from 'express';
import { z } from 'zod';
import { DEFAULT_HEARTBEAT_MS } from '../routes/event-stream.js';
import type { ConversationEvent } from './handoffs.js';
import type { LiveFeed } from './live-feed.js';

export interface LiveStreamSource {
  feed: LiveFeed;
  eventsAfter(
    after: number,
    options: { sessionId?: string; limit?: number },
  ): Promise<ConversationEvent[]>;
  cursor(): Promise<number>;
}

/** `?after=`: where a stream opened by a page that has just read the past begins. */
export const afterQuery = z.object({
  after: z.coerce
    .number()
    .int()
    .min(0)
    .optional()
    .describe(
      'Events after this id (the `cursor`/`events_cursor` read with the past); a reconnect ' +
        'sends `Last-Event-ID` instead. Default: from now.',
    ),
});

/** Where a stream resumes: `Last-Event-ID` (a reconnect), else `?after=`, else now. */
export function resumeAfter(req: Request, after: number | undefined): number | undefined {
  const header = req.get('last-event-id');
  if (header !== undefined && /^\d{1,15}$/.test(header)) return Number(header);
  return after;
}

/**
 * Conversation events as Server-Sent Events with ids: a client reconnecting with `Last-Event-ID`
 * gets what it missed, once (past events first, then the live feed's beyond the last id sent).
 */
export async function streamLiveEvents(
  req: Request,
  res: Response,
  source: LiveStreamSource,
  options: {
    after: number | undefined;
    sessionId?: string;
    first?: { event: string; data: unknown };
    heartbeatMs?: number;
  },
): Promise<void> {
  let last = options.after ?? (await source.cursor());
  let replaying = true;
  const waiting: ConversationEvent[] = [];
  const mine = (event: ConversationEvent) =>
    !options.sessionId || event.session_id === options.sessionId;
  const send = (event: ConversationEvent) => {
    if (event.id <= last || res.writableEnded) return;
    last = event.id;
    res.write(
      `event: ${event.type}\nid: ${event.id}\ndata: ${JSON.stringify(liveData(event))}\n\n`,
    );
  };
  const unsubscribe = await source.feed.subscribe((events) => {
    for (const event of events.filter(mine)) {
      if (replaying) waiting.push(event);
      else send(event);
    }
  });
  const untrack = source.feed.track(() => res.end());
  res.once('close', () => {
    unsubscribe();
    untrack();
  });
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
  });
  res.flushHeaders();
  const heartbeat = setInterval(() => {
    if (!res.writableEnded) res.write(': keep-alive\n\n');
  }, options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS);
  res.once('close', () => clearInterval(heartbeat));
  if (options.first) {
    res.write(`event: ${options.first.event}\ndata: ${JSON.stringify(options.first.data)}\n\n`);
  }
  try {
    for (;;) {
      const past = await source.eventsAfter(last, {
        ...(options.sessionId ? { sessionId: options.sessionId } : {}),
        limit: 500,
      });
      past.forEach(send);
      if (past.length < 500) break;
    }
  } finally {
    replaying = false;
    waiting.forEach(send);
  }
  // Stays open until the client goes (then `close` above ends the subscription).
  void req;
}

/** What a client reads of an event: its data, with the session and time. */
const liveData = (event: ConversationEvent) => ({
  session_id: event.session_id,
  at: event.at,
  ...event.data,
});
