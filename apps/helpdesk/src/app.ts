import type { Express } from 'express';
import type { Registry } from 'prom-client';
import {
  createHttpApp,
  readPackageVersion,
  type AuthSettings,
  type HttpAppOptions,
  type Logger,
  type ReadinessCheck,
  type Route,
} from '@repo/http-kit';
import { webhookRoutes, type Outbox } from '@repo/webhooks';
import type { ChatService } from './chat/chat-service.js';
import { chatRoute } from './routes/chat.js';
import { deleteSessionRoute, getSessionRoute } from './routes/sessions.js';

export interface AppDeps {
  chat: ChatService;
  /** GET /webhooks/deliveries and their retry (default: none). */
  outbox?: Outbox;
  logger?: Logger;
  /** When set, every route but health (/healthz, /readyz) needs `Authorization: Bearer <token>`. */
  apiToken?: string;
  /** Named tokens and JWTs (API_TOKENS, AUTH_JWKS_URL). */
  auth?: AuthSettings;
  /** Comment lines on POST /chat's event streams this often (default 15 s). */
  sseHeartbeatMs?: number;
  /** Called on every finished response (tests check the document lists every answer). */
  onResponse?: HttpAppOptions['onResponse'];
  /**
   * Sessions live in a database (PostgreSQL mode): `/readyz` asks it, and every route documents
   * its 503 `database_unavailable`.
   */
  database?: { readiness: ReadinessCheck };
  /** GET /metrics from this registry, behind the token unless `public` (METRICS_PUBLIC). */
  metrics?: { registry: Registry; public?: boolean };
  /** A server span per request, its trace id in the request's log lines (tracing on). */
  tracing?: boolean;
}

/** A session route as it is when sessions live in a database that may be away. */
function withDatabaseAnswer(route: Route): Route {
  return {
    ...route,
    responses: {
      ...route.responses,
      503: {
        description: 'The session database is not available (`database_unavailable`, Retry-After).',
      },
    },
  };
}

const version = readPackageVersion(new URL('../package.json', import.meta.url));

/** The HTTP face of the help desk; its routes document themselves at GET /openapi.json. Never listens (server.ts does). */
export function createApp(deps: AppDeps): Express {
  const sessionRoutes = [
    chatRoute(deps.chat, { heartbeatMs: deps.sseHeartbeatMs, logger: deps.logger }),
    getSessionRoute(deps.chat),
    deleteSessionRoute(deps.chat),
    ...(deps.outbox ? webhookRoutes(deps.outbox) : []),
  ];
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
      routes: sessionRoutes.map((route) => (deps.database ? withDatabaseAnswer(route) : route)),
    },
    readiness: deps.database?.readiness,
    onResponse: deps.onResponse,
    metrics: deps.metrics,
    tracing: deps.tracing,
  });
}
