import type { Router } from 'express';
import { HttpError, validate } from '@repo/http-kit';
import type { ChatService } from '../chat/chat-service.js';
import { sessionParamsSchema } from './schemas.js';

/** GET and DELETE /sessions/{session_id}. */
export function addSessionRoutes(router: Router, chat: ChatService): void {
  router.get('/sessions/:session_id', (req, res) => {
    const { session_id } = validate(sessionParamsSchema, req.params);
    const turns = chat.turns(session_id);
    if (!turns) {
      throw new HttpError(404, 'session_not_found', `No session ${session_id}.`, { session_id });
    }
    res.json({ session_id, turns });
  });

  router.delete('/sessions/:session_id', async (req, res) => {
    const { session_id } = validate(sessionParamsSchema, req.params);
    await chat.remove(session_id);
    res.status(204).end();
  });
}
