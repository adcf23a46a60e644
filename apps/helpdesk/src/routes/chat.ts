import type { Router } from 'express';
import { validate } from '@repo/http-kit';
import type { ChatService } from '../chat/chat-service.js';
import { chatRequestSchema } from './schemas.js';

/** POST /chat: one message in, the answering agent's reply out. */
export function addChatRoutes(router: Router, chat: ChatService): void {
  router.post('/chat', async (req, res) => {
    const { session_id, message } = validate(chatRequestSchema, req.body);
    res.json(await chat.send(session_id, message));
  });
}
