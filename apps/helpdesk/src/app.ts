import { Router, type Express } from 'express';
import { createHttpApp, type Logger } from '@repo/http-kit';
import type { ChatService } from './chat/chat-service.js';
import { addChatRoutes } from './routes/chat.js';
import { addOpenApiRoute } from './routes/openapi.js';
import { addSessionRoutes } from './routes/sessions.js';

export interface AppDeps {
  chat: ChatService;
  logger?: Logger;
  /** When set, every route but health (/healthz, /readyz) needs `Authorization: Bearer <token>`. */
  apiToken?: string;
}

/** The HTTP face of the help desk. Never listens (server.ts does). */
export function createApp(deps: AppDeps): Express {
  // One router, so http-kit can tell 405 from 404 by its routes.
  const routes = Router();
  addChatRoutes(routes, deps.chat);
  addSessionRoutes(routes, deps.chat);
  addOpenApiRoute(routes);
  return createHttpApp({
    name: 'helpdesk',
    logger: deps.logger,
    apiToken: deps.apiToken,
    // A message is at most 8 000 characters; even fully \u-escaped it fits well within this.
    bodyLimit: '64kb',
    routes,
  });
}
