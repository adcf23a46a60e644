import { randomUUID } from 'node:crypto';
import type {
  AppendEventRequest,
  CreateSessionRequest,
  DeleteSessionRequest,
  Event,
  GetSessionRequest,
  ListSessionsRequest,
  ListSessionsResponse,
  Session,
} from '@google/adk';
import type pg from 'pg';
import type { HistoryLimits } from '../sessions/condense-history.js';
import {
  applyGetConfig,
  CondensingSessionService,
  onePage,
  sessionKey,
} from '../sessions/condensing-session-service.js';
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
 * ADK's sessions in PostgreSQL. During a turn (PostgresSessionTurns) its session is checked out
 * into the memory this class inherits: ADK's calls change only that, and the turn writes it once,
 * after it succeeded, so one that fails leaves nothing half-written. Other calls go to the database.
 */
export class PostgresSessionService extends CondensingSessionService {
  private readonly sql: ReturnType<typeof statements>;

  constructor(
    private readonly pool: pg.Pool,
    schema: string,
    historyLimits: HistoryLimits,
    private readonly clock: () => number = Date.now,
  ) {
    super(historyLimits);
    this.sql = statements(schema);
  }

  /** Until `checkIn`, ADK's calls for the session change `session` only: the turn's session. */
  checkOut(session: Session): void {
    this.sessions.set(sessionKey(session), session);
  }

  checkIn(session: Session): void {
    this.sessions.delete(sessionKey(session));
  }

  override async createSession({
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

  override async getSession(request: GetSessionRequest): Promise<Session | undefined> {
    const open = await super.getSession(request);
    if (open) return open;
    const { appName, userId, sessionId } = request;
    const result = await this.pool.query<SessionRow>(this.sql.get, [appName, userId, sessionId]);
    const row = result.rows[0];
    return (
      row && applyGetConfig(sessionFromRow({ appName, userId, sessionId }, row), request.config)
    );
  }

  override async listSessions({
    appName,
    userId,
  }: ListSessionsRequest): Promise<ListSessionsResponse> {
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

  override async deleteSession({
    appName,
    userId,
    sessionId,
  }: DeleteSessionRequest): Promise<void> {
    await this.pool.query(this.sql.delete, [appName, userId, sessionId]);
  }

  override async appendEvent({ session, event }: AppendEventRequest): Promise<Event> {
    await super.appendEvent({ session, event });
    if (event.partial || this.sessions.has(sessionKey(session))) return event;
    await this.pool.query(this.sql.update, [
      session.appName,
      session.userId,
      session.id,
      storableJson(session.state),
      storableJson(session.events),
      new Date(this.clock()),
    ]);
    return event;
  }
}
