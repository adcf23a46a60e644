import { currentActor, defineRoute, emptyBody, HttpError, type Route } from '@repo/http-kit';
import { z } from 'zod';
import type { OperatorDesk } from './operator-desk.js';
import { messageTextSchema, sessionParamsSchema } from '../routes/schemas.js';
import { turnSchema } from '../sessions/transcript.js';
import { handoffSchema } from './handoffs.js';
import type { LiveFeed } from './live-feed.js';
import { afterQuery, streamLiveEvents } from './live-stream.js';

/**
 * Who may use the console: the callers named in OPERATORS (as http-kit names the request's actor),
 * or anyone when the service has no auth (the operator is then `operator`).
 */
type OperatorRoster = ReadonlySet<string> | 'open';

function requireOperator(roster: OperatorRoster): string {
  const actor = currentActor();
  if (roster === 'open') return actor === 'anonymous' || actor === 'system' ? 'operator' : actor;
  if (!roster.has(actor)) {
    throw new HttpError(403, 'not_an_operator', 'This token does not belong to an operator.');
  }
  return actor;
}

interface OperatorRouteOptions {
  desk: OperatorDesk;
  feed: LiveFeed;
  roster: OperatorRoster;
  heartbeatMs?: number;
}

const cursorSchema = z
  .number()
  .int()
  .describe('The latest live event id when this was read: open GET /operator/events?after=<it>.');

const replySchema = z.strictObject({ text: messageTextSchema });

const auth = {
  401: { description: 'No valid bearer token (the public widget gets this too).' },
  403: { description: 'The token is not an operator’s (OPERATORS): `not_an_operator`.' },
};

const notQueued = { description: 'Not waiting for a person nor held (`not_in_queue`).' };
const notHeld = { description: 'You do not hold the conversation (`not_taken_over`).' };

/** The operator console's API: the queue, a conversation, takeover, replies, hand back, live events. */
export function operatorRoutes(options: OperatorRouteOptions): Route[] {
  const { desk, roster } = options;
  return [
    defineRoute({
      method: 'get',
      path: '/operator/conversations',
      summary: 'Conversations waiting for a person, or held by one.',
      responses: {
        200: {
          description: 'The queue, oldest request first.',
          schema: z.object({ conversations: z.array(handoffSchema), cursor: cursorSchema }),
        },
        ...auth,
      },
      handler: async ({ res }) => {
        requireOperator(roster);
        res.json(await desk.queue());
      },
    }),
    defineRoute({
      method: 'get',
      path: '/operator/conversations/{session_id}',
      summary: 'One conversation: its queue entry (if any) and its transcript.',
      params: sessionParamsSchema,
      responses: {
        200: {
          description: 'The conversation.',
          schema: z.object({
            entry: handoffSchema.nullable(),
            turns: z.array(turnSchema),
            cursor: cursorSchema,
          }),
        },
        ...auth,
        404: { description: 'No such session (`session_not_found`).' },
      },
      handler: async ({ params, res }) => {
        requireOperator(roster);
        res.json(await desk.conversation(params.session_id));
      },
    }),
    defineRoute({
      method: 'post',
      path: '/operator/conversations/{session_id}/takeover',
      summary: 'Take the conversation over: the agents stop answering it.',
      params: sessionParamsSchema,
      body: emptyBody,
      responses: {
        200: { description: 'Held by you now (again, if it was).', schema: handoffSchema },
        ...auth,
        404: notQueued,
        409: { description: 'Another operator holds it (`already_taken`).' },
      },
      handler: async ({ params, res }) => {
        const operator = requireOperator(roster);
        res.json(await desk.takeOver(params.session_id, operator));
      },
    }),
    defineRoute({
      method: 'post',
      path: '/operator/conversations/{session_id}/messages',
      summary: 'Write to the customer in a conversation you hold.',
      params: sessionParamsSchema,
      body: replySchema,
      responses: {
        201: {
          description: 'Sent: in the transcript and on the customer’s live events.',
          schema: z.object({ event_id: z.number().int(), at: z.iso.datetime() }),
        },
        ...auth,
        409: notHeld,
      },
      handler: async ({ params, body, res }) => {
        const operator = requireOperator(roster);
        const event = await desk.reply(params.session_id, operator, body.text);
        res.status(201).json({ event_id: event.id, at: event.at });
      },
    }),
    defineRoute({
      method: 'post',
      path: '/operator/conversations/{session_id}/handback',
      summary: 'Hand the conversation back to the agents; it leaves the queue.',
      params: sessionParamsSchema,
      body: emptyBody,
      responses: {
        204: { description: 'The agents answer its next message.' },
        ...auth,
        404: notQueued,
        409: notHeld,
      },
      handler: async ({ params, res }) => {
        const operator = requireOperator(roster);
        await desk.handBack(params.session_id, operator);
        res.status(204).end();
      },
    }),
    defineRoute({
      method: 'get',
      path: '/operator/events',
      summary: 'Live events of every conversation (Server-Sent Events, resumable by id).',
      query: afterQuery,
      responses: {
        200: {
          description:
            'text/event-stream: `handoff_requested`, `taken_over`, `handed_back`, ' +
            '`customer_message`, `operator_message`, `wait_timeout`; each `id:` is the event’s, ' +
            'so `Last-Event-ID` resumes without loss or repeats.',
          schema: null,
        },
        ...auth,
      },
      handler: async ({ query, res }) => {
        requireOperator(roster);
        const { heartbeatMs } = options;
        await streamLiveEvents(res, options.feed, { after: query.after, heartbeatMs });
      },
    }),
  ];
}
