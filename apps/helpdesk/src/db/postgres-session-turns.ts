import type { Session } from '@google/adk';
import type { Logger } from '@repo/http-kit';
import type pg from 'pg';
import { SessionQueues } from '../sessions/session-queues.js';
import type { SessionTurns, TurnTranscript } from '../sessions/session-turns.js';
import { Transcript, type TranscriptLimits, type Turn } from '../sessions/transcript.js';
import { DatabaseUnavailable, type DatabaseHealth } from '@repo/pg-kit';
import {
  sessionFromRow,
  type PostgresSessionService,
  type SessionRow,
} from './postgres-session-service.js';
import { lockSession, type SessionLock } from './session-lock.js';
import { storableJson } from './storable-json.js';
import { sweepIdleSessions } from './sweep-idle-sessions.js';
import { sessionsTable } from './tables.js';

export interface PostgresSessionTurnsOptions {
  pool: pg.Pool;
  lockPool: pg.Pool;
  schema: string;
  sessionService: PostgresSessionService;
  appName: string;
  userId: string;
  /** Sessions unused for longer are gone: not read, and deleted by the sweep. */
  ttlMs: number;
  /** Messages of one session waiting or running in this process before 429. */
  maxQueuedPerSession: number;
  transcript: TranscriptLimits;
  clock: () => number;
  health: DatabaseHealth;
  /** False until the schema is set up (start-up waits for the database): requests get 503. */
  isReady: () => boolean;
  logger: Logger;
}

type StoredRow = SessionRow & { transcript: Turn[]; created_at: Date };

/**
 * Sessions in PostgreSQL, any number of instances serving them. A turn runs in three steps:
 * 1. its place in this process's queue for the session (one request per session per instance
 *    waits on the database; more than the limit → 429);
 * 2. the session's advisory lock (lockSession), held across instances for the whole turn;
 * 3. read the row, run the turn on it, write the row back, all through the lock's connection.
 * A turn writes once, after it succeeded: one that fails or dies leaves the row as it was.
 */
export class PostgresSessionTurns implements SessionTurns {
  private readonly queues: SessionQueues;
  private readonly sql: Record<
    'read' | 'save' | 'touch' | 'transcript' | 'delete' | 'count',
    string
  >;

  constructor(private readonly options: PostgresSessionTurnsOptions) {
    this.queues = new SessionQueues(options.maxQueuedPerSession);
    const sessions = sessionsTable(options.schema);
    const key = 'app_name = $1 AND user_id = $2 AND session_id = $3';
    this.sql = {
      read: `SELECT state, events, transcript, created_at, updated_at FROM ${sessions} WHERE ${key} AND updated_at >= $4`,
      save: `INSERT INTO ${sessions} (app_name, user_id, session_id, state, events, transcript, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
             ON CONFLICT (app_name, user_id, session_id) DO UPDATE SET state = EXCLUDED.state,
               events = EXCLUDED.events, transcript = EXCLUDED.transcript,
               created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at`,
      touch: `UPDATE ${sessions} SET updated_at = $4 WHERE ${key}`,
      transcript: `SELECT transcript FROM ${sessions} WHERE ${key} AND updated_at >= $4`,
      delete: `DELETE FROM ${sessions} WHERE ${key}`,
      count: `SELECT count(*)::int AS n FROM ${sessions} WHERE app_name = $1 AND user_id = $2 AND updated_at >= $3`,
    };
  }

  /** Live sessions in the table (expired rows the sweep has not reached yet are not counted). */
  async count(): Promise<number> {
    this.requireReady();
    const { pool, appName, userId, health } = this.options;
    const result = await health.guard(() =>
      pool.query<{ n: number }>(this.sql.count, [appName, userId, this.cutoff()]),
    );
    return result.rows[0]?.n ?? 0;
  }

  queued(sessionId: string): number {
    return this.queues.pending(sessionId);
  }

  runTurn<T>(sessionId: string, turn: (transcript: TurnTranscript) => Promise<T>): Promise<T> {
    return this.queues.run(sessionId, () =>
      this.locked(sessionId, async (lock) => {
        const stored = await this.read(lock, sessionId);
        const session = this.sessionOf(sessionId, stored);
        const transcript = new Transcript(this.options.transcript, stored?.transcript);
        const { sessionService } = this.options;
        sessionService.checkOut(session);
        let result: T;
        try {
          result = await turn(transcript);
        } catch (error) {
          await this.touch(lock, sessionId, stored);
          throw error;
        } finally {
          sessionService.checkIn(session);
        }
        await this.save(lock, session, transcript, stored?.created_at);
        return result;
      }),
    );
  }

  async turnsOf(sessionId: string): Promise<readonly Turn[] | undefined> {
    this.requireReady();
    const result = await this.options.health.guard(() =>
      this.options.pool.query<{ transcript: Turn[] }>(this.sql.transcript, [
        ...this.ids(sessionId),
        this.cutoff(),
      ]),
    );
    return result.rows[0]?.transcript;
  }

  delete(sessionId: string): Promise<void> {
    return this.queues.run(sessionId, () =>
      this.locked(sessionId, async (lock) => {
        await this.options.health.guard(() => lock.query(this.sql.delete, this.ids(sessionId)));
      }),
    );
  }

  /** Deletes idle sessions past the TTL, unless another instance is sweeping right now. */
  evictExpired(): Promise<number> {
    this.requireReady();
    const { pool, schema, appName, userId, health } = this.options;
    return health.guard(() => sweepIdleSessions(pool, schema, { appName, userId }, this.cutoff()));
  }

  private async locked<T>(sessionId: string, task: (lock: SessionLock) => Promise<T>): Promise<T> {
    this.requireReady();
    const { lockPool, health, logger } = this.options;
    const lock = await health.guard(() => lockSession(lockPool, sessionId, logger));
    try {
      return await task(lock);
    } finally {
      await lock.release();
    }
  }

  private async read(lock: SessionLock, sessionId: string): Promise<StoredRow | undefined> {
    const result = await this.options.health.guard(() =>
      lock.query<StoredRow>(this.sql.read, [...this.ids(sessionId), this.cutoff()]),
    );
    return result.rows[0];
  }

  private sessionOf(sessionId: string, stored: StoredRow | undefined): Session {
    const { appName, userId, clock } = this.options;
    const row = stored ?? { state: {}, events: [], updated_at: new Date(clock()) };
    return sessionFromRow({ appName, userId, sessionId }, row);
  }

  private async save(
    lock: SessionLock,
    session: Session,
    transcript: Transcript,
    createdAt: Date | undefined,
  ): Promise<void> {
    const now = new Date(this.options.clock());
    const events = this.options.sessionService.condensed(session.events);
    await this.options.health.guard(() =>
      lock.query(this.sql.save, [
        ...this.ids(session.id),
        storableJson(session.state),
        storableJson(events),
        storableJson(transcript.turns),
        createdAt ?? now,
        now,
      ]),
    );
  }

  /** A failed turn changes nothing but still counts as a use of a session that exists. */
  private async touch(lock: SessionLock, sessionId: string, stored: StoredRow | undefined) {
    if (!stored) return;
    const now = new Date(this.options.clock());
    await lock.query(this.sql.touch, [...this.ids(sessionId), now]).catch(() => undefined);
  }

  private ids(sessionId: string): [string, string, string] {
    return [this.options.appName, this.options.userId, sessionId];
  }

  private cutoff(): Date {
    return new Date(this.options.clock() - this.options.ttlMs);
  }

  private requireReady(): void {
    if (!this.options.isReady()) throw new DatabaseUnavailable();
  }
}
