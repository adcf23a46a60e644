import { currentLogger, defineRoute, EventStream, writeJson, type Logger } from '@repo/http-kit';
import { z } from 'zod';
import { chatReplySchema, type ChatService } from '../chat/chat-service.js';
import { streamTurn } from '../chat/stream-turn.js';
import { turnEventSchemas } from '../chat/turn-events.js';
import { sessionAccessOf } from '../web/public-widget.js';
import { chatRequestSchema, turnProblemSchema, widgetTokenHeader } from './schemas.js';

interface ChatRouteOptions {
  /** Comment lines on an event stream this often (default 15 s); tests shorten it. */
  heartbeatMs?: number;
  /** Where a streamed turn's failure is logged when no request logger is at hand. */
  logger: Logger;
  /** WIDGET_PUBLIC with auth on: see sessionAccessOf. */
  publicWidget: boolean;
}

const eventOf = <N extends string>(event: N, data: z.ZodType) =>
  z.object({ event: z.literal(event), id: z.string(), data });

/** POST /chat's `text/event-stream` answer, one item per event, for the OpenAPI document. */
const chatEventStreamSchema = z
  .discriminatedUnion('event', [
    eventOf('agent', turnEventSchemas.agent),
    eventOf('tool_call', turnEventSchemas.tool_call),
    eventOf('tool_result', turnEventSchemas.tool_result),
    eventOf('delta', turnEventSchemas.delta),
    eventOf('done', chatReplySchema.describe('The last event: the body JSON mode answers.')),
    eventOf(
      'error',
      turnProblemSchema.describe('The last event when the turn failed: problem details.'),
    ),
  ])
  .describe(
    'Server-Sent Events: each with `event:` (its name), `id:` (1, 2, …) and one line of JSON `data:`; ' +
      'agent → tool_call → tool_result → delta… then exactly one done or error. ' +
      'A comment line (`: keep-alive`) every 15 s.',
  );

const CHAT_EVENT_STREAM_EXAMPLE = [
  'event: agent\nid: 1\ndata: {"agent":"billing"}\n',
  'event: tool_call\nid: 2\ndata: {"name":"lookup_invoice","args":{"invoice_id":"INV-1001"}}\n',
  'event: tool_result\nid: 3\ndata: {"name":"lookup_invoice","result":{"found":true,"invoice_id":"INV-1001","amount":1250,"currency":"EUR","status":"open"}}\n',
  'event: delta\nid: 4\ndata: {"text":"Invoice INV-1001 is open: "}\n',
  'event: delta\nid: 5\ndata: {"text":"1250 EUR, due on 2025-02-15."}\n',
  'event: done\nid: 6\ndata: {"session_id":"demo-1","agent":"billing","reply":"Invoice INV-1001 is open: 1250 EUR, due on 2025-02-15."}\n',
].join('\n');

/** POST /chat: one message in, the answering agent's reply out, as JSON or as its events. */
export const chatRoute = (chat: ChatService, options: ChatRouteOptions) =>
  defineRoute({
    method: 'post',
    path: '/chat',
    summary: 'Send a message; the coordinator routes it to one specialist, which answers.',
    body: chatRequestSchema,
    headers: widgetTokenHeader,
    responses: {
      200: {
        description:
          'The reply of the agent that answered; with `Accept: text/event-stream`, the turn as ' +
          'Server-Sent Events, opened once the turn starts.',
        schema: chatReplySchema,
        alternatives: {
          'text/event-stream': {
            schema: chatEventStreamSchema,
            example: CHAT_EVENT_STREAM_EXAMPLE,
          },
        },
      },
      404: {
        description:
          'Without a token (public widget): a session the `X-Widget-Token` does not reach, or ' +
          'none (`session_not_found`); nothing is run or recorded.',
      },
      429: {
        description:
          'Too many messages waiting on this session, another instance’s turn of it not done in ' +
          'time, or this turn’s lease lost to another turn (nothing recorded).',
        schema: turnProblemSchema,
      },
      502: {
        description: 'The model failed (after retries) or the agents produced no reply.',
        schema: turnProblemSchema,
      },
      504: {
        description: 'The model did not answer in time (after retries).',
        schema: turnProblemSchema,
      },
    },
    handler: async ({ body, req, res }) => {
      const input = {
        sessionId: body.session_id,
        message: body.message,
        access: sessionAccessOf(req, options.publicWidget),
      };
      if (req.accepts(['application/json', 'text/event-stream']) !== 'text/event-stream') {
        writeJson(res, await chat.send(input.sessionId, input.message, undefined, input.access));
        return;
      }
      const requestId = res.getHeader('x-request-id');
      await streamTurn(
        chat,
        input,
        new EventStream(res, { heartbeatMs: options.heartbeatMs, numbered: true }),
        {
          logger: currentLogger(options.logger),
          ...(typeof requestId === 'string' ? { requestId } : {}),
        },
      );
    },
  });
