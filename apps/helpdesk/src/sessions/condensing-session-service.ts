import { randomUUID } from 'node:crypto';
import {
  BaseSessionService,
  type AppendEventRequest,
  type CreateSessionRequest,
  type DeleteSessionRequest,
  type Event,
  type GetSessionRequest,
  type ListSessionsResponse,
  type Session,
} from '@google/adk';
import { condenseHistory, type HistoryLimits } from './condense-history.js';

const sessionKey = (session: Pick<Session, 'appName' | 'userId' | 'id'>) =>
  `${session.appName}\u0000${session.userId}\u0000${session.id}`;

/**
 * ADK sessions in memory. Unlike ADK's InMemorySessionService, a history is condensed when a new
 * message arrives, and `getSession` copies shallowly (ADK never changes an appended event). No
 * eviction or locking: the SessionTurns decide which sessions live, one turn of each at a time.
 */
export class CondensingSessionService extends BaseSessionService {
  private readonly sessions = new Map<string, Session>();

  constructor(private readonly historyLimits: HistoryLimits) {
    super();
  }

  /** A session read from PostgreSQL, served to ADK until `checkIn`; its turn writes it back. */
  checkOut(session: Session): void {
    this.sessions.set(sessionKey(session), session);
  }

  checkIn(session: Session): void {
    this.sessions.delete(sessionKey(session));
  }

  /** The history to keep once a turn is over: what the model sees next turn. */
  condensed(events: readonly Event[]): Event[] {
    return condenseHistory(events, this.historyLimits);
  }

  async createSession(request: CreateSessionRequest): Promise<Session> {
    const { appName, userId, state } = request;
    const id = request.sessionId ?? randomUUID();
    const session = {
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

  async getSession(request: GetSessionRequest): Promise<Session | undefined> {
    const stored = this.sessions.get(sessionKey({ ...request, id: request.sessionId }));
    if (!stored) return undefined;
    const { numRecentEvents, afterTimestamp } = request.config ?? {};
    const session = copyOf(stored);
    if (numRecentEvents) session.events = session.events.slice(-numRecentEvents);
    if (afterTimestamp)
      session.events = session.events.filter((e) => e.timestamp >= afterTimestamp);
    return session;
  }

  /** Unused: the SessionTurns count and find sessions. */
  listSessions(): Promise<ListSessionsResponse> {
    return Promise.reject(new Error('listSessions is not served: SessionTurns keep the sessions.'));
  }

  async deleteSession(request: DeleteSessionRequest): Promise<void> {
    this.sessions.delete(sessionKey({ ...request, id: request.sessionId }));
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
