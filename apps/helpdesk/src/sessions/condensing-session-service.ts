import { randomUUID } from 'node:crypto';
import {
  BaseSessionService,
  type AppendEventRequest,
  type CreateSessionRequest,
  type DeleteSessionRequest,
  type Event,
  type GetSessionConfig,
  type GetSessionRequest,
  type ListSessionsRequest,
  type ListSessionsResponse,
  type Session,
} from '@google/adk';
import { condenseHistory, type HistoryLimits } from './condense-history.js';

/** One map key per ADK session. */
export const sessionKey = (session: Pick<Session, 'appName' | 'userId' | 'id'>) =>
  `${session.appName}\u0000${session.userId}\u0000${session.id}`;

/** getSession's `config` applied to a copy's events (most recent N, after a timestamp). */
export function applyGetConfig(session: Session, config: GetSessionConfig | undefined): Session {
  if (config?.numRecentEvents) session.events = session.events.slice(-config.numRecentEvents);
  if (config?.afterTimestamp) {
    const after = config.afterTimestamp;
    session.events = session.events.filter((event) => event.timestamp >= after);
  }
  return session;
}

/** listSessions' answer for sessions listed without their events: one page holding them all. */
export function onePage(sessions: Session[]): ListSessionsResponse {
  const totalItems = sessions.length;
  return { sessions, page: 1, limit: totalItems, totalItems, totalPages: totalItems ? 1 : 0 };
}

/**
 * ADK sessions in process memory (a BaseSessionService). Unlike ADK's InMemorySessionService, each
 * history is condensed when a new message arrives (condenseHistory), and `getSession` copies
 * shallowly (ADK never changes an appended event). No eviction and no locking: the SessionStore
 * decides which sessions live and runs one turn per session at a time.
 */
export class CondensingSessionService extends BaseSessionService {
  protected readonly sessions = new Map<string, Session>();

  constructor(private readonly historyLimits: HistoryLimits) {
    super();
  }

  /** The history to keep once a turn is over: what the model sees next turn. */
  condensed(events: readonly Event[]): Event[] {
    return condenseHistory(events, this.historyLimits);
  }

  async createSession({
    appName,
    userId,
    state,
    sessionId,
  }: CreateSessionRequest): Promise<Session> {
    const id = sessionId ?? randomUUID();
    const session: Session = {
      id,
      appName,
      userId,
      state: { ...state },
      events: [],
      lastUpdateTime: Date.now(),
    };
    this.sessions.set(sessionKey(session), session);
    return copyOf(session);
  }

  async getSession({
    appName,
    userId,
    sessionId,
    config,
  }: GetSessionRequest): Promise<Session | undefined> {
    const stored = this.sessions.get(sessionKey({ appName, userId, id: sessionId }));
    return stored && applyGetConfig(copyOf(stored), config);
  }

  async listSessions({ appName, userId }: ListSessionsRequest): Promise<ListSessionsResponse> {
    const prefix = sessionKey({ appName, userId, id: '' });
    const sessions: Session[] = [];
    for (const [key, session] of this.sessions) {
      if (key.startsWith(prefix)) sessions.push({ ...session, state: {}, events: [] });
    }
    return onePage(sessions);
  }

  async deleteSession({ appName, userId, sessionId }: DeleteSessionRequest): Promise<void> {
    this.sessions.delete(sessionKey({ appName, userId, id: sessionId }));
  }

  override async appendEvent({ session, event }: AppendEventRequest): Promise<Event> {
    if (event.partial) return event;
    const stored = this.sessions.get(sessionKey(session));
    if (event.author === 'user') {
      // A new message closes the previous turn: condense before the runner reads the history.
      // `session` is the runner's copy; both it and the stored session must change.
      const condensed = this.condensed(stored?.events ?? session.events);
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
