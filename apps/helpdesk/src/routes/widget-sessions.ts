import { defineRoute, emptyBody } from '@repo/http-kit';
import { widgetSessionSchema, type ChatService } from '../chat/chat-service.js';

/**
 * POST /widget/sessions: the chat widget starts a conversation. The service picks the id and
 * gives the secret that reaches it without a token (WIDGET_PUBLIC); ids a client chooses are
 * never reachable that way.
 */
export const startWidgetSessionRoute = (chat: ChatService) =>
  defineRoute({
    method: 'post',
    path: '/widget/sessions',
    summary: 'Start a conversation for the chat widget: its id and its secret.',
    body: emptyBody,
    responses: {
      201: {
        description:
          'The session, empty, and its `widget_token`: send it as `X-Widget-Token` with its ' +
          'messages and reads. Only its hash is kept; it cannot be had again.',
        schema: widgetSessionSchema,
        headers: { 'Cache-Control': { description: '`no-store`: the answer holds a secret.' } },
      },
    },
    handler: async ({ res }) => {
      res.setHeader('Cache-Control', 'no-store');
      res.status(201).json(await chat.openWidgetSession());
    },
  });
