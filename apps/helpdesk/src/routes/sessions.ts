import { defineRoute } from '@repo/http-kit';
import type { ChatService } from '../chat/chat-service.js';
import { sessionNotFound } from '../sessions/session-access.js';
import { sessionAccessOf } from '../web/public-widget.js';
import { sessionParamsSchema, sessionResponseSchema, widgetTokenHeader } from './schemas.js';

/**
 * GET /sessions/{session_id}: the transcript so far. With a public widget (`publicWidget`), a
 * request without a token reads only a session the widget started, by its secret.
 */
export const getSessionRoute = (chat: ChatService, options: { publicWidget?: boolean } = {}) =>
  defineRoute({
    method: 'get',
    path: '/sessions/{session_id}',
    summary: 'The messages of a session so far.',
    params: sessionParamsSchema,
    headers: widgetTokenHeader,
    responses: {
      200: { description: 'The transcript.', schema: sessionResponseSchema },
      404: {
        description:
          'Unknown, deleted or expired session; without a token (public widget), also one the ' +
          '`X-Widget-Token` does not reach (`session_not_found`).',
      },
    },
    handler: async ({ params: { session_id }, req, res }) => {
      const turns = await chat.turns(
        session_id,
        sessionAccessOf(req, Boolean(options.publicWidget)),
      );
      if (!turns) throw sessionNotFound(session_id);
      res.json({ session_id, turns });
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
