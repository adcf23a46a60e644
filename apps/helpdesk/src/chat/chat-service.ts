import { Runner, type BaseAgent, type BasePlugin, type BaseSessionService } from '@google/adk';
import { z } from 'zod';
import { agentNameSchema } from '../agents/agent-names.js';
import { sourceSchema } from '../help-center/citations.js';
import { CondensingSessionService } from '../sessions/condensing-session-service.js';
import {
  apiCaller,
  newWidgetSessionId,
  newWidgetToken,
  widgetTokenSha256,
  type SessionAccess,
} from '../sessions/session-access.js';
import { SessionStore } from '../sessions/session-store.js';
import type { SessionSettings, SessionTurns } from '../sessions/session-turns.js';
import { runTurn, type TurnObserver, type TurnOutcome } from './run-turn.js';
import type { Caller } from '../tools/caller.js';
import { currentActor } from '@repo/http-kit';
import type { Handoffs } from '../operator/handoffs.js';
import { MemoryHandoffs } from '../operator/memory-handoffs.js';
import { createOperatorDesk } from '../operator/operator-desk.js';
import { TurnFailedError } from './turn-errors.js';
import { publishTurnFailed, ticketCreated, type TurnWebhooks } from './turn-webhooks.js';

/** What POST /chat answers when the agents answer. */
const agentReplySchema = z.object({
  session_id: z.string(),
  agent: agentNameSchema,
  reply: z.string(),
  ticket_id: z
    .string()
    .optional()
    .describe('Present exactly when the escalation agent opened a ticket in this turn.'),
  sources: z
    .array(sourceSchema)
    .optional()
    .describe('The help center articles the reply cites as [kb:slug]; absent when it cites none.'),
});

/** What POST /chat answers while a person holds the conversation: the message went to them. */
const humanHeldSchema = z.object({
  session_id: z.string(),
  mode: z.literal('human'),
  operator: z
    .string()
    .describe('Who holds the conversation; their replies arrive on GET /sessions/{id}/events.'),
});

/** What POST /chat answers. */
export const chatReplySchema = z.union([agentReplySchema, humanHeldSchema]);

export type ChatReply = z.infer<typeof chatReplySchema>;
export type AgentReply = z.infer<typeof agentReplySchema>;

export interface ChatServiceOptions {
  /** The root of the agent tree (createRootAgent). */
  agent: BaseAgent;
  /** Passed to ADK's Runner (AGENT_APP_NAME). */
  appName: string;
  /** Where ADK keeps the sessions (default: CondensingSessionService); it must condense history. */
  sessionService?: BaseSessionService;
  /** Default: ADK's Runner over `agent` and `sessionService`. */
  runner?: Runner;
  /** ADK plugins of the default Runner (e.g. src/telemetry's MetricsPlugin). */
  plugins?: BasePlugin[];
  /** Where sessions live (default: SessionStore); given with the `sessionService` it uses. */
  sessionTurns?: SessionTurns;
  sessionTtlMs: number;
  /** Sessions kept in memory at most (memory mode only). */
  maxSessions: number;
  /** Messages of one session waiting or running before more are refused with 429 (default 32). */
  maxQueuedPerSession?: number;
  clock?: () => number;
  /** Report `ticket.created` and `turn.failed` to the webhook endpoints (none: no events built). */
  webhooks?: TurnWebhooks;
  /** The operators' queue and live events (default: in memory). */
  handoffs?: Handoffs;
  /** Observed once per answered turn (metrics: grounded answers, removed citations). */
  onAnswer?: (outcome: TurnOutcome) => void;
  /** Observed once per takeover with how long the conversation waited (metrics). */
  onTakeover?: (waitedMs: number) => void;
}

/** What POST /widget/sessions answers: a new conversation and the secret that reaches it. */
export const widgetSessionSchema = z.object({
  session_id: z.string().describe('Of the service’s choosing (random).'),
  widget_token: z
    .string()
    .describe(
      'The secret the widget presents as `X-Widget-Token` to reach this session without a ' +
        'bearer token; given once, only its hash is kept.',
    ),
});

// Client-chosen session ids are unique per app, so one ADK user holds them all.
const USER_ID = 'helpdesk';

export function sessionSettings(
  options: Omit<ChatServiceOptions, 'agent' | 'maxSessions'>,
): SessionSettings {
  return {
    appName: options.appName,
    userId: USER_ID,
    ttlMs: options.sessionTtlMs,
    maxQueuedPerSession: options.maxQueuedPerSession ?? 32,
    // What the model still sees of a session's past, and what GET /sessions/{id} keeps of it.
    history: { turns: 3, chars: 2400 },
    transcript: { maxTurns: 200, maxChars: 64_000 },
    clock: options.clock ?? Date.now,
  };
}

/** ADK's Runner over the agent tree, one turn per session at a time; injected or in-memory parts. */
export function createChatService(options: ChatServiceOptions) {
  const settings = sessionSettings(options);
  const { clock } = settings;
  const sessionService =
    options.sessionService ??
    options.runner?.sessionService ??
    new CondensingSessionService(settings.history);
  const runner =
    options.runner ??
    new Runner({
      appName: options.appName,
      agent: options.agent,
      sessionService,
      ...(options.plugins ? { plugins: options.plugins } : {}),
    });
  if (runner.sessionService !== sessionService) {
    throw new Error('The runner must use the chat service’s session service.');
  }
  if (options.sessionTurns && !options.sessionService) {
    throw new Error('sessionTurns needs the sessionService its turns run on.');
  }
  const store =
    options.sessionTurns ??
    new SessionStore({
      ...settings,
      sessionService,
      maxSessions: options.maxSessions,
      ...(options.webhooks ? { outbox: options.webhooks.outbox } : {}),
    });
  const at = () => new Date(clock()).toISOString();
  const webhooks = options.webhooks?.outbox.enabled ? options.webhooks : undefined;
  const desk = createOperatorDesk({
    store,
    sessionService,
    handoffs: options.handoffs ?? new MemoryHandoffs(clock, options.webhooks?.outbox),
    settings,
    webhooks: options.webhooks,
    onTakeover: options.onTakeover,
  });

  return {
    /** `observer`: POST /chat's event stream; `access`: by default the request's API caller (A2A). */
    send: async (
      sessionId: string,
      message: string,
      observer?: TurnObserver,
      access: SessionAccess = { caller: apiCaller() },
    ): Promise<ChatReply> => {
      const reply = await store.runTurn(
        sessionId,
        async (transcript): Promise<ChatReply> => {
          const operator = await desk.heldBy(sessionId);
          if (operator) {
            observer?.onStart?.();
            await desk.customerMessage(sessionId, message, transcript);
            return { session_id: sessionId, mode: 'human', operator };
          }
          const askedAt = at();
          const caller: Caller =
            'widgetToken' in access ? { kind: 'widget', session: sessionId } : access.caller;
          const input = { userId: USER_ID, sessionId, message, caller };
          const outcome = await runTurn(runner, input, observer).catch(async (error: unknown) => {
            if (webhooks && error instanceof TurnFailedError) {
              await publishTurnFailed(webhooks, input, error);
            }
            throw error;
          });
          options.onAnswer?.(outcome);
          const { agent, reply, ticketId, sources } = outcome;
          const extras = {
            ...(ticketId ? { ticket_id: ticketId } : {}),
            ...(sources.length > 0 ? { sources } : {}),
          };
          if (webhooks && ticketId) {
            transcript.announce([ticketCreated(webhooks, { ...input, ticketId })]);
          }
          transcript.append([
            { role: 'user', agent: null, text: message, at: askedAt },
            { role: 'assistant', agent, text: reply, ...extras, at: at() },
          ]);
          return { session_id: sessionId, agent, reply, ...extras };
        },
        access,
      );
      // An escalation: the conversation waits for a person (once; the ticket is its reason).
      if ('ticket_id' in reply && reply.ticket_id) {
        await desk.requestHuman(sessionId, reply.ticket_id, currentActor());
      }
      return reply;
    },
    turns: async (sessionId: string, access: SessionAccess = { caller: apiCaller() }) =>
      store.turnsOf(sessionId, access),
    /** Starts a conversation for the public widget: a random id and its secret. */
    openWidgetSession: async () => {
      const session = { session_id: newWidgetSessionId(), widget_token: newWidgetToken() };
      await store.openWidgetSession(session.session_id, widgetTokenSha256(session.widget_token));
      return session;
    },
    remove: async (sessionId: string) => {
      await store.delete(sessionId);
      await desk.forget(sessionId);
    },
    /** Drops sessions idle past the TTL (also done when they are next used); returns how many. */
    evictExpired: async () => {
      const evicted = await store.evictExpired();
      await desk.forgetGone();
      return evicted;
    },
    queuedTurns: (sessionId: string) => store.queued(sessionId),
    countSessions: async () => store.count(),
    /** The operators' side: the queue, takeover, replies, hand back (src/operator). */
    desk,
  };
}

export type ChatService = ReturnType<typeof createChatService>;
