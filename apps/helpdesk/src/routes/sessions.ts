import { defineRoute, HttpError } from '@repo/http-kit';
import type { ChatService } from '../chat/chat-service.js';
import { sessionParamsSchema, sessionResponseSchema } from './schemas.js';

/** GET /sessions/{session_id}: the transcript so far. */
export const getSessionRoute = (chat: ChatService) =>
  defineRoute({
    method: 'get',
    path: '/sessions/{session_id}',
    summary: 'The messages of a session so far.',
    params: sessionParamsSchema,
    responses: {
      200: { description: 'The transcript.', schema: sessionResponseSchema },
      404: { description: 'Unknown, deleted or expired session.' },
    },
    handler: async ({ params: { session_id }, res }) => {
      const turns = await chat.turns(session_id);
      if (!turns) {
        throw new HttpError(404, 'session_not_found', `No session ${session_id}.`, { session_id });
      }
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
