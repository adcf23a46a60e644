import { randomUUID } from 'node:crypto';
import {
  BaseSessionService,
  type AppendEventRequest,
  type CreateSessionRequest,
  type DeleteSessionRequest,
  type Event,
  type GetSessionRequest,
  type ListSessionsRequest,
  type ListSessionsResponse,
  type Session,
} from '@google/adk';
import { condenseHistory, type HistoryLimits } from './condense-history.js';
import { applyGetConfig, onePage, sessionKey as keyOf } from './session-service-parts.js';

/**
 * ADK sessions in process memory (a BaseSessionService). Unlike ADK's InMemorySessionService, each
 * history is condensed when a new message arrives (condenseHistory), and `getSession` copies
 * shallowly (ADK never changes an appended event). No eviction and no locking: the SessionStore
 * decides which sessions live and runs one turn per session at a time.
 */
export class CondensingSessionService extends BaseSessionService {
  private readonly sessions = new Map<string, Session>();

  constructor(private readonly historyLimits: HistoryLimits) {
    super();
  }

  async createSession({
    appName,
    userId,
    state,
    sessionId,
  }: CreateSessionRequest): Promise<Session> {
    const session: Session = {
      id: sessionId ?? randomUUID(),
      appName,
      userId,
      state: { ...state },
      events: [],
      lastUpdateTime: Date.now(),
    };
    this.sessions.set(keyOf(appName, userId, session.id), session);
    return copyOf(session);
  }

  async getSession({
    appName,
    userId,
    sessionId,
    config,
  }: GetSessionRequest): Promise<Session | undefined> {
    const stored = this.sessions.get(keyOf(appName, userId, sessionId));
    if (!stored) return undefined;
    return applyGetConfig(copyOf(stored), config);
  }

  async listSessions({ appName, userId }: ListSessionsRequest): Promise<ListSessionsResponse> {
    const prefix = keyOf(appName, userId, '');
    const sessions: Session[] = [];
    for (const [key, session] of this.sessions) {
      if (key.startsWith(prefix)) sessions.push({ ...session, state: {}, events: [] });
    }
    return onePage(sessions);
  }

  async deleteSession({ appName, userId, sessionId }: DeleteSessionRequest): Promise<void> {
    this.sessions.delete(keyOf(appName, userId, sessionId));
  }

  override async appendEvent({ session, event }: AppendEventRequest): Promise<Event> {
    if (event.partial) return event;
    const stored = this.sessions.get(keyOf(session.appName, session.userId, session.id));
    if (event.author === 'user') {
      // A new message closes the previous turn: condense before the runner reads the history.
      // `session` is the runner's copy; both it and the stored session must change.
      const condensed = condenseHistory(stored?.events ?? session.events, this.historyLimits);
      session.events.splice(0, session.events.length, ...condensed);
      if (stored && stored !== session) stored.events = condensed.slice();
    }
    await super.appendEvent({ session, event });
    session.lastUpdateTime = event.timestamp;
    if (stored && stored !== session) {
      await super.appendEvent({ session: stored, event });
      stored.lastUpdateTime = event.timestamp;
    }
    return event;
  }
}

function copyOf(session: Session): Session {
  return { ...session, state: { ...session.state }, events: session.events.slice() };
}
