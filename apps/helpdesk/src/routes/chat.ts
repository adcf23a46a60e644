import { defineRoute } from '@repo/http-kit';
import { chatReplySchema, type ChatService } from '../chat/chat-service.js';
import { chatRequestSchema, turnProblemSchema } from './schemas.js';

/** POST /chat: one message in, the answering agent's reply out. */
export const chatRoute = (chat: ChatService) =>
  defineRoute({
    method: 'post',
    path: '/chat',
    summary: 'Send a message; the coordinator routes it to one specialist, which answers.',
    body: chatRequestSchema,
    responses: {
      200: { description: 'The reply of the agent that answered.', schema: chatReplySchema },
      429: {
        description: 'Too many messages waiting on this session.',
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
    handler: async ({ body, res }) => {
      res.json(await chat.send(body.session_id, body.message));
    },
  });
