import type { Express } from 'express';
import {
  createHttpApp,
  readPackageVersion,
  type AuthSettings,
  type HttpAppOptions,
  type Logger,
} from '@repo/http-kit';
import type { ChatService } from './chat/chat-service.js';
import { chatRoute } from './routes/chat.js';
import { deleteSessionRoute, getSessionRoute } from './routes/sessions.js';

export interface AppDeps {
  chat: ChatService;
  logger?: Logger;
  /** When set, every route but health (/healthz, /readyz) needs `Authorization: Bearer <token>`. */
  apiToken?: string;
  /** Named tokens and JWTs (API_TOKENS, AUTH_JWKS_URL). */
  auth?: AuthSettings;
  /** Called on every finished response (tests check the document lists every answer). */
  onResponse?: HttpAppOptions['onResponse'];
}

const version = readPackageVersion(new URL('../package.json', import.meta.url));

/** The HTTP face of the help desk; its routes document themselves at GET /openapi.json. Never listens (server.ts does). */
export function createApp(deps: AppDeps): Express {
  return createHttpApp({
    name: 'helpdesk',
    logger: deps.logger,
    apiToken: deps.apiToken,
    auth: deps.auth,
    // A message is at most 8 000 characters; even fully \u-escaped it fits well within this.
    bodyLimit: '64kb',
    api: {
      title: 'helpdesk',
      version,
      description:
        'A coordinator agent delegates each chat message to the billing, technical or escalation agent.',
      routes: [chatRoute(deps.chat), getSessionRoute(deps.chat), deleteSessionRoute(deps.chat)],
    },
    onResponse: deps.onResponse,
  });
}
