import { readFileSync } from 'node:fs';
import type { Express } from 'express';
import { createHttpApp, type HttpAppOptions, type Logger } from '@repo/http-kit';
import type { ChatService } from './chat/chat-service.js';
import { chatRoute } from './routes/chat.js';
import { deleteSessionRoute, getSessionRoute } from './routes/sessions.js';

export interface AppDeps {
  chat: ChatService;
  logger?: Logger;
  /** When set, every route but health (/healthz, /readyz) needs `Authorization: Bearer <token>`. */
  apiToken?: string;
  /** Comment lines on POST /chat's event streams this often (default 15 s). */
  sseHeartbeatMs?: number;
  /** Called on every finished response (tests check the document lists every answer). */
  onResponse?: HttpAppOptions['onResponse'];
}

const { version } = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
) as { version: string };

/** The HTTP face of the help desk; its routes document themselves at GET /openapi.json. Never listens (server.ts does). */
export function createApp(deps: AppDeps): Express {
  return createHttpApp({
    name: 'helpdesk',
    logger: deps.logger,
    apiToken: deps.apiToken,
    // A message is at most 8 000 characters; even fully \u-escaped it fits well within this.
    bodyLimit: '64kb',
    api: {
      title: 'helpdesk',
      version,
      description:
        'A coordinator agent delegates each chat message to the billing, technical or escalation agent.',
      routes: [
        chatRoute(deps.chat, { heartbeatMs: deps.sseHeartbeatMs, logger: deps.logger }),
        getSessionRoute(deps.chat),
        deleteSessionRoute(deps.chat),
      ],
    },
    onResponse: deps.onResponse,
  });
}
