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
import type pg from 'pg';
import { condenseHistory, type HistoryLimits } from '../sessions/condense-history.js';
import { applyGetConfig, onePage, sessionKey as keyOf } from '../sessions/session-service-parts.js';
import { storableJson } from './storable-json.js';
import { SESSION_KEY, sessionsTable } from './tables.js';

/** A session's row as the service reads it. */
export interface SessionRow {
  state: Record<string, unknown>;
  events: Event[];
  updated_at: Date;
}

export function sessionFromRow(
  ids: { appName: string; userId: string; sessionId: string },
  row: SessionRow,
): Session {
  return {
    id: ids.sessionId,
    appName: ids.appName,
    userId: ids.userId,
    state: row.state,
    events: row.events,
    lastUpdateTime: row.updated_at.getTime(),
  };
}

function statements(schema: string) {
  const sessions = sessionsTable(schema);
  return {
    insert: `INSERT INTO ${sessions} (app_name, user_id, session_id, state, events, transcript, created_at, updated_at)
             VALUES ($1, $2, $3, $4, '[]', '[]', $5, $5) ON CONFLICT DO NOTHING`,
    get: `SELECT state, events, updated_at FROM ${sessions} WHERE ${SESSION_KEY}`,
    list: `SELECT session_id, updated_at FROM ${sessions} WHERE app_name = $1 AND user_id = $2 ORDER BY updated_at DESC`,
    delete: `DELETE FROM ${sessions} WHERE ${SESSION_KEY}`,
    update: `UPDATE ${sessions} SET state = $4, events = $5, updated_at = $6 WHERE ${SESSION_KEY}`,
  };
}

/**
 * ADK's BaseSessionService on PostgreSQL, condensing history as CondensingSessionService does.
 * During a turn (PostgresSessionTurns) the session is checked out: getSession answers that object
 * and appendEvent changes it only in memory, so the turn writes once, after it succeeded, and one
 * that fails leaves nothing half-written. Outside a turn (ADK's tooling) calls go to the database.
 */
export class PostgresSessionService extends BaseSessionService {
  private readonly checkedOut = new Map<string, Session>();
  private readonly sql: ReturnType<typeof statements>;

  constructor(
    private readonly pool: pg.Pool,
    schema: string,
    private readonly historyLimits: HistoryLimits,
    private readonly clock: () => number = Date.now,
  ) {
    super();
    this.sql = statements(schema);
  }

  /** Until `checkIn`, getSession answers `session` itself for its id: the turn's session. */
  checkOut(session: Session): void {
    this.checkedOut.set(keyOf(session.appName, session.userId, session.id), session);
  }

  checkIn(session: Session): void {
    this.checkedOut.delete(keyOf(session.appName, session.userId, session.id));
  }

  /** The history to store once a turn is over: what the model sees next turn. */
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
    const now = new Date(this.clock());
    const inserted = await this.pool.query(this.sql.insert, [
      appName,
      userId,
      id,
      storableJson(state ?? {}),
      now,
    ]);
    if (inserted.rowCount !== 1) throw new Error(`Session with id ${id} already exists.`);
    return { id, appName, userId, state: { ...state }, events: [], lastUpdateTime: now.getTime() };
  }

  async getSession({
    appName,
    userId,
    sessionId,
    config,
  }: GetSessionRequest): Promise<Session | undefined> {
    const open = this.checkedOut.get(keyOf(appName, userId, sessionId));
    if (open) return open;
    const result = await this.pool.query<SessionRow>(this.sql.get, [appName, userId, sessionId]);
    const row = result.rows[0];
    if (!row) return undefined;
    return applyGetConfig(sessionFromRow({ appName, userId, sessionId }, row), config);
  }

  async listSessions({ appName, userId }: ListSessionsRequest): Promise<ListSessionsResponse> {
    const result = await this.pool.query<{ session_id: string; updated_at: Date }>(this.sql.list, [
      appName,
      userId,
    ]);
    const sessions: Session[] = result.rows.map((row) => ({
      id: row.session_id,
      appName,
      userId,
      state: {},
      events: [],
      lastUpdateTime: row.updated_at.getTime(),
    }));
    return onePage(sessions);
  }

  async deleteSession({ appName, userId, sessionId }: DeleteSessionRequest): Promise<void> {
    await this.pool.query(this.sql.delete, [appName, userId, sessionId]);
  }

  override async appendEvent({ session, event }: AppendEventRequest): Promise<Event> {
    if (event.partial) return event;
    if (event.author === 'user') {
      // A new message closes the previous turn: condense before the runner reads the history.
      session.events.splice(0, session.events.length, ...this.condensed(session.events));
    }
    await super.appendEvent({ session, event });
    session.lastUpdateTime = event.timestamp;
    if (!this.checkedOut.has(keyOf(session.appName, session.userId, session.id))) {
      await this.pool.query(this.sql.update, [
        session.appName,
        session.userId,
        session.id,
        storableJson(session.state),
        storableJson(session.events),
        new Date(this.clock()),
      ]);
    }
    return event;
  }
}
