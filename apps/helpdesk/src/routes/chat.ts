import {
  createLogger,
  currentLogger,
  defineRoute,
  EventStream,
  writeJson,
  type Logger,
} from '@repo/http-kit';
import { chatReplySchema, type ChatService } from '../chat/chat-service.js';
import { streamTurn } from '../chat/stream-turn.js';
import { CHAT_EVENT_STREAM_EXAMPLE, chatEventStreamSchema } from './chat-event-stream-doc.js';
import { sessionAccessOf } from '../web/public-widget.js';
import { chatRequestSchema, turnProblemSchema, widgetTokenHeader } from './schemas.js';

interface ChatRouteOptions {
  /** Comment lines on an event stream this often (default 15 s); tests shorten it. */
  heartbeatMs?: number;
  /** Where a streamed turn's failure is logged when no request logger is at hand. */
  logger?: Logger;
  /** WIDGET_PUBLIC with auth on: a message without a token reaches only a widget's session, by its secret. */
  publicWidget?: boolean;
}

/** POST /chat: one message in, the answering agent's reply out, as JSON or as its events. */
export const chatRoute = (chat: ChatService, options: ChatRouteOptions = {}) => {
  const fallbackLogger = options.logger ?? createLogger({ name: 'helpdesk' });
  return defineRoute({
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
        access: sessionAccessOf(req, Boolean(options.publicWidget)),
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
          logger: currentLogger(fallbackLogger),
          ...(typeof requestId === 'string' ? { requestId } : {}),
        },
      );
    },
  });
};
