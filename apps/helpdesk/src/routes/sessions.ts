import { defineRoute } from '@repo/http-kit';
import type { LiveFeed } from '../operator/live-feed.js';
import { afterQuery, streamLiveEvents } from '../operator/live-stream.js';
import type { ChatService } from '../chat/chat-service.js';
import { sessionNotFound } from '../sessions/session-access.js';
import { sessionAccessOf } from '../web/public-widget.js';
import { sessionParamsSchema, sessionResponseSchema, widgetTokenHeader } from './schemas.js';

const notFound = {
  description:
    'Unknown, deleted or expired session; without a token (public widget), also one the ' +
    '`X-Widget-Token` does not reach (`session_not_found`).',
};

/** GET /sessions/{session_id}: the transcript so far (`publicWidget`: sessionAccessOf). */
export const getSessionRoute = (chat: ChatService, options: { publicWidget: boolean }) =>
  defineRoute({
    method: 'get',
    path: '/sessions/{session_id}',
    summary: 'The messages of a session so far.',
    params: sessionParamsSchema,
    headers: widgetTokenHeader,
    responses: {
      200: { description: 'The transcript.', schema: sessionResponseSchema },
      404: notFound,
    },
    handler: async ({ params: { session_id }, req, res }) => {
      // Before the transcript: the live events after it may repeat a message read here (by event_id).
      const eventsCursor = await chat.desk.live.cursor();
      const turns = await chat.turns(session_id, sessionAccessOf(req, options.publicWidget));
      if (!turns) throw sessionNotFound(session_id);
      res.json({ session_id, turns, events_cursor: eventsCursor });
    },
  });

/** DELETE /sessions/{session_id}: forget a session; a turn in flight finishes first. */
export const deleteSessionRoute = (chat: ChatService) =>
  defineRoute({
    method: 'delete',
    path: '/sessions/{session_id}',
    summary: 'Forget a session (idempotent).',
    params: sessionParamsSchema,
    responses: { 204: { description: 'Deleted, or did not exist.' } },
    handler: async ({ params: { session_id }, res }) => {
      await chat.remove(session_id);
      res.status(204).end();
    },
  });

/** GET /sessions/{session_id}/events: the conversation's live events, `state` first. */
export const sessionEventsRoute = (
  chat: ChatService,
  feed: LiveFeed,
  options: { publicWidget: boolean; heartbeatMs?: number },
) =>
  defineRoute({
    method: 'get',
    path: '/sessions/{session_id}/events',
    summary: 'The conversation’s live events: a person taking over, their replies, hand back.',
    params: sessionParamsSchema,
    query: afterQuery,
    headers: widgetTokenHeader,
    responses: {
      200: {
        description:
          'text/event-stream: `state` `{ mode: "agents" | "waiting" | "human", operator }` first ' +
          '(no id), then `handoff_requested`, `taken_over` `{ operator }`, `operator_message` ' +
          '`{ operator, text, at }`, `handed_back`, `wait_timeout` `{ text }`, `customer_message`.',
        schema: null,
      },
      404: notFound,
    },
    handler: async ({ params: { session_id }, query, req, res }) => {
      const access = sessionAccessOf(req, options.publicWidget);
      if (!(await chat.turns(session_id, access))) throw sessionNotFound(session_id);
      const entry = await chat.desk.entry(session_id);
      await streamLiveEvents(res, feed, {
        after: query.after,
        sessionId: session_id,
        first: {
          event: 'state',
          data: {
            mode: !entry ? 'agents' : entry.state === 'taken' ? 'human' : 'waiting',
            operator: entry?.operator ?? null,
          },
        },
        heartbeatMs: options.heartbeatMs,
      });
    },
  });
