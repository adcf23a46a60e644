import { EventStream } from '@repo/http-kit';
import type { Response } from 'express';
import { z } from 'zod';
import { EVENTS_PAGE, type ConversationEvent } from './handoffs.js';
import type { LiveFeed } from './live-feed.js';

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

/**
 * Conversation events as Server-Sent Events with ids, from `Last-Event-ID` (a reconnect), else
 * `?after=`, else now: past events first, then the live feed's beyond the last id sent.
 */
export async function streamLiveEvents(
  res: Response,
  feed: LiveFeed,
  options: {
    after: number | undefined;
    sessionId?: string;
    first?: { event: string; data: unknown };
    heartbeatMs?: number;
  },
): Promise<void> {
  const lastEventId = res.req.get('last-event-id');
  const resumed = lastEventId && /^\d{1,15}$/.test(lastEventId) ? Number(lastEventId) : undefined;
  let last = resumed ?? options.after ?? (await feed.source.cursor());
  let replaying = true;
  const waiting: ConversationEvent[] = [];
  const mine = (event: ConversationEvent) =>
    !options.sessionId || event.session_id === options.sessionId;
  const stream = new EventStream(res, { heartbeatMs: options.heartbeatMs });
  const send = (event: ConversationEvent) => {
    if (event.id <= last || stream.gone) return;
    last = event.id;
    const { session_id, at, data } = event;
    stream.send(event.type, { session_id, at, ...data }, event.id);
  };
  const unsubscribe = await feed.subscribe(
    (events) => {
      for (const event of events.filter(mine)) {
        if (replaying) waiting.push(event);
        else send(event);
      }
    },
    () => stream.end(),
  );
  res.once('close', unsubscribe);
  stream.open();
  if (options.first) stream.send(options.first.event, options.first.data);
  try {
    for (;;) {
      const past = await feed.source.eventsAfter(last, options.sessionId);
      past.forEach(send);
      if (past.length < EVENTS_PAGE) break;
    }
  } finally {
    replaying = false;
    waiting.forEach(send);
  }
}
