import type { Express } from 'express';
import {
  createHttpApp,
  readPackageVersion,
  type HttpAppOptions,
  type Logger,
  type Route,
} from '@repo/http-kit';
import { knowledgeRoutes, type KnowledgeBase } from '@repo/knowledge';
import { webhookRoutes, type Outbox } from '@repo/webhooks';
import { a2aRoutes } from './a2a/a2a-routes.js';
import { a2aParseErrors } from './a2a/json-rpc-endpoint.js';
import { AGENT_CARD_PATH } from './a2a/agent-card.js';
import type { ChatService } from './chat/chat-service.js';
import { chatRoute } from './routes/chat.js';
import { deleteSessionRoute, getSessionRoute, sessionEventsRoute } from './routes/sessions.js';
import { CONSOLE_PATHS, consolePage } from './operator/console-page.js';
import type { LiveFeed } from './operator/live-feed.js';
import { operatorRoutes } from './operator/operator-routes.js';
import { startWidgetSessionRoute } from './routes/widget-sessions.js';
import { CHAT_PAGE_PATHS, chatPage } from './web/chat-page.js';
import {
  isPublicWidgetRequest,
  publicWidgetLimits,
  type PublicWidgetLimits,
} from './web/public-widget.js';

/** The customer chat page and its embed (WIDGET_*). */
export interface WidgetSettings {
  /** Who may frame the page: `*` (default) or origins. */
  allowedOrigins?: readonly string[] | '*';
  /**
   * Set: the page, POST /widget/sessions, POST /chat and GET /sessions/{id} need no token, within
   * these limits; without one, a session is reached only by the secret the widget was given.
   */
  public?: Omit<PublicWidgetLimits, 'bodyLimit'>;
}

/** The app's parts; what http-kit's app takes is passed on as given (its docs there). */
export interface AppDeps extends Pick<
  HttpAppOptions,
  'apiToken' | 'auth' | 'onResponse' | 'metrics' | 'tracing' | 'trustProxy' | 'readiness'
> {
  chat: ChatService;
  /** GET /webhooks/deliveries and their retry (default: none). */
  outbox?: Outbox;
  logger: Logger;
  /** Comment lines on POST /chat's event streams this often (default 15 s). */
  sseHeartbeatMs?: number;
  /** Sessions live in a database (PostgreSQL mode): every route documents its 503 `database_unavailable`. */
  database?: boolean;
  widget?: WidgetSettings;
  /** The base URL the A2A agent card advertises (PUBLIC_URL); default: the listening address. */
  publicUrl?: string;
  /** OPERATORS: the callers (token names, JWT email/subject) who may use the console. */
  operators?: readonly string[];
  /** The one reader of live events the app's customer and console streams share. */
  liveFeed: LiveFeed;
  /** The help center's knowledge base: GET/PUT/DELETE /kb/articles, GET /kb/search (behind the token). */
  knowledge?: KnowledgeBase;
}

// A message is at most 8 000 characters; even fully \u-escaped it fits well within this.
const BODY_LIMIT = '64kb';

/** The route with `description` added to its `status` answer (after its own, if it has one). */
function withAnswer(route: Route, status: number, description: string): Route {
  const own = route.responses[status];
  const answer = { ...own, description: own ? `${own.description} ${description}` : description };
  return { ...route, responses: { ...route.responses, [status]: answer } };
}

const DATABASE_ANSWER =
  'The session database is not available (`database_unavailable`, Retry-After).';
const RATE_LIMIT_ANSWER =
  'A public widget (WIDGET_PUBLIC): too many requests from this address or to this session (`rate_limited`, Retry-After).';

const version = readPackageVersion(new URL('../package.json', import.meta.url));

/** The HTTP face of the help desk; its routes document themselves at GET /openapi.json. Never listens (server.ts does). */
export function createApp(deps: AppDeps): Express {
  const auth = Boolean(deps.apiToken || deps.auth?.tokens.length || deps.auth?.jwt);
  const widget = deps.widget ?? {};
  // Without auth every request is the API's already: there is nothing for a secret to open.
  const publicWidget = Boolean(widget.public) && auth;
  const sessionRoutes = [
    startWidgetSessionRoute(deps.chat),
    chatRoute(deps.chat, { heartbeatMs: deps.sseHeartbeatMs, logger: deps.logger, publicWidget }),
    getSessionRoute(deps.chat, { publicWidget }),
    deleteSessionRoute(deps.chat),
    ...(deps.outbox ? webhookRoutes(deps.outbox) : []),
  ];
  const kbRoutes = deps.knowledge ? knowledgeRoutes(deps.knowledge) : [];
  const liveRoutes = [
    sessionEventsRoute(deps.chat, deps.liveFeed, {
      publicWidget,
      heartbeatMs: deps.sseHeartbeatMs,
    }),
    ...operatorRoutes({
      desk: deps.chat.desk,
      feed: deps.liveFeed,
      roster: auth ? new Set(deps.operators ?? []) : 'open',
      heartbeatMs: deps.sseHeartbeatMs,
    }),
  ];
  return createHttpApp({
    name: 'helpdesk',
    logger: deps.logger,
    apiToken: deps.apiToken,
    auth: deps.auth,
    bodyLimit: BODY_LIMIT,
    trustProxy: deps.trustProxy,
    api: {
      title: 'helpdesk',
      version,
      description:
        'A coordinator agent delegates each chat message to the billing, technical or escalation agent.',
      routes: [
        ...sessionRoutes.map((route) =>
          widget.public && route.method !== 'delete'
            ? withAnswer(route, 429, RATE_LIMIT_ANSWER)
            : route,
        ),
        ...liveRoutes,
        ...kbRoutes,
      ].map((route) => (deps.database ? withAnswer(route, 503, DATABASE_ANSWER) : route)),
    },
    readiness: deps.readiness,
    onResponse: deps.onResponse,
    metrics: deps.metrics,
    tracing: deps.tracing,
    // The page asks for a token itself when the API needs one; agents read the card to learn that.
    publicPaths: [...CHAT_PAGE_PATHS, ...CONSOLE_PATHS, AGENT_CARD_PATH],
    ...(widget.public ? { isPublicRequest: isPublicWidgetRequest } : {}),
    configure: (app) => {
      chatPage({ frameAncestors: widget.allowedOrigins ?? '*' })(app);
      consolePage()(app);
      if (widget.public) publicWidgetLimits({ ...widget.public, bodyLimit: BODY_LIMIT })(app);
    },
    bodyErrorHandler: a2aParseErrors,
    routes: a2aRoutes({
      chat: deps.chat,
      logger: deps.logger,
      version,
      auth,
      publicUrl: deps.publicUrl,
    }),
  });
}
