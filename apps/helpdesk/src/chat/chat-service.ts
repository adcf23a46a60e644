import { Runner, type BaseAgent } from '@google/adk';
import { HttpError } from '@repo/http-kit';
import type { HistoryLimits } from '../sessions/condense-history.js';
import { HistorySessionService } from '../sessions/history-session-service.js';
import { SessionQueue } from '../sessions/session-queue.js';
import { SessionRegistry, type Turn } from '../sessions/session-registry.js';
import { runTurn } from './run-turn.js';

export interface ChatReply {
  session_id: string;
  agent: string;
  reply: string;
  ticket_id?: string;
}

export interface ChatServiceOptions {
  /** The root of the agent tree (createRootAgent). */
  agent: BaseAgent;
  /** Passed to ADK's Runner (AGENT_APP_NAME). */
  appName: string;
  sessionTtlMs: number;
  maxSessions: number;
  /** How much of a session's past the model still sees (default 3 turns, 2 400 characters). */
  history?: Partial<HistoryLimits>;
  /** Messages kept per session for GET /sessions/{id} (default 200). */
  maxTurnsPerSession?: number;
  /** Characters of message text kept per session for GET /sessions/{id} (default 64 000). */
  maxTranscriptChars?: number;
  /** Messages of one session waiting or running before more are refused with 429 (default 32). */
  maxQueuedPerSession?: number;
  clock?: () => number;
}

export interface ChatService {
  send(sessionId: string, message: string): Promise<ChatReply>;
  turns(sessionId: string): readonly Turn[] | undefined;
  remove(sessionId: string): Promise<void>;
  /** Drops sessions idle past the TTL (also done on every request); returns how many. */
  evictExpired(): number;
  /** Turns of a session running or waiting. */
  queuedTurns(sessionId: string): number;
  readonly sessionCount: number;
}

// Client-chosen session ids are unique per app, so one ADK user holds them all.
const USER_ID = 'helpdesk';

/**
 * The chat operation: one Runner over the agent tree, turns serialized per session, sessions
 * kept bounded by the registry. Everything here is built once per process.
 */
export function createChatService(options: ChatServiceOptions): ChatService {
  const clock = options.clock ?? Date.now;
  const maxQueued = options.maxQueuedPerSession ?? 32;
  const queue = new SessionQueue();
  const sessionService = new HistorySessionService({
    turns: options.history?.turns ?? 3,
    chars: options.history?.chars ?? 2400,
  });
  const registry = new SessionRegistry({
    ttlMs: options.sessionTtlMs,
    maxSessions: options.maxSessions,
    maxTurnsPerSession: options.maxTurnsPerSession ?? 200,
    maxTranscriptChars: options.maxTranscriptChars ?? 64_000,
    clock,
    inUse: (sessionId) => queue.depth(sessionId) > 0,
    onRemove: (sessionId) => sessionService.remove(options.appName, USER_ID, sessionId),
  });
  const runner = new Runner({ appName: options.appName, agent: options.agent, sessionService });
  const at = () => new Date(clock()).toISOString();

  async function runOneTurn(sessionId: string, message: string): Promise<ChatReply> {
    const { created } = registry.touch(sessionId);
    if (created || !sessionService.has(options.appName, USER_ID, sessionId)) {
      await sessionService.createSession({ appName: options.appName, userId: USER_ID, sessionId });
    }
    const askedAt = at();
    const outcome = await runTurn(runner, { userId: USER_ID, sessionId, message });
    registry.record(sessionId, [
      { role: 'user', agent: null, text: message, at: askedAt },
      {
        role: 'assistant',
        agent: outcome.agent,
        text: outcome.reply,
        ...(outcome.ticketId ? { ticket_id: outcome.ticketId } : {}),
        at: at(),
      },
    ]);
    return {
      session_id: sessionId,
      agent: outcome.agent,
      reply: outcome.reply,
      ...(outcome.ticketId ? { ticket_id: outcome.ticketId } : {}),
    };
  }

  return {
    async send(sessionId, message) {
      if (queue.depth(sessionId) >= maxQueued) {
        throw new HttpError(
          429,
          'session_busy',
          `Session ${sessionId} already has ${maxQueued} messages waiting; retry later.`,
          { session_id: sessionId },
          { 'retry-after': '1' },
        );
      }
      return queue.run(sessionId, () => runOneTurn(sessionId, message));
    },
    turns: (sessionId) => registry.turnsOf(sessionId),
    // Through the queue: a turn in flight finishes before its session goes.
    remove: (sessionId) => queue.run(sessionId, async () => void registry.delete(sessionId)),
    evictExpired: () => registry.evictExpired(),
    queuedTurns: (sessionId) => queue.depth(sessionId),
    get sessionCount() {
      return registry.size;
    },
  };
}
