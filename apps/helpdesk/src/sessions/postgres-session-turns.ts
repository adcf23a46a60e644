import type { Event, Session } from '@google/adk';
import type pg from 'pg';
import { SessionQueues, sessionTakenOver } from './session-queues.js';
import type { Outbox, WebhookEvent } from '@repo/webhooks';
import {
  runTurnSteps,
  type SessionSettings,
  type SessionTurns,
  type TurnTranscript,
} from './session-turns.js';
import { mayReach, type SessionAccess } from './session-access.js';
import { Transcript, type Turn } from './transcript.js';
import { withTransaction } from '@repo/pg-kit';
import type { CondensingSessionService } from './condensing-session-service.js';
import { releasing, type SessionLease, type SessionLeases } from './session-leases.js';
import { storableJson } from './storable-json.js';
import { sweepIdleSessions } from './sweep-idle-sessions.js';
import { SESSION_KEY, sessionsTable } from '../db/tables.js';

interface PostgresSessionTurnsOptions extends Omit<SessionSettings, 'history'> {
  pool: pg.Pool;
  /** Turns of one session one at a time across instances. */
  leases: SessionLeases;
  schema: string;
  /** ADK's sessions: a turn's session is checked out into it while the turn runs. */
  sessionService: CondensingSessionService;
  /** Where the events a turn announces are committed, in the transaction of the turn's write. */
  outbox?: Outbox;
}

interface StoredRow {
  state: Record<string, unknown>;
  events: Event[];
  transcript: Turn[];
  created_at: Date;
  updated_at: Date;
  widget_token_sha256: string | null;
}

function statements(schema: string) {
  const sessions = sessionsTable(schema);
  // $1–$4: the session and the lease's owner (LeaseKey).
  const released = releasing(schema);
  return {
    read: `SELECT state, events, transcript, created_at, updated_at, widget_token_sha256 FROM ${sessions} WHERE ${SESSION_KEY} AND updated_at >= $4`,
    // The secret's hash as the turn read it: an expired row a new session replaces loses its own.
    saveAndRelease: `${released}
      INSERT INTO ${sessions} (app_name, user_id, session_id, state, events, transcript, created_at, updated_at, widget_token_sha256)
      SELECT $1, $2, $3, $5::jsonb, $6::jsonb, $7::jsonb, $8::timestamptz, $9::timestamptz, $10::text FROM released
      ON CONFLICT (app_name, user_id, session_id) DO UPDATE SET state = EXCLUDED.state,
        events = EXCLUDED.events, transcript = EXCLUDED.transcript,
        created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at,
        widget_token_sha256 = EXCLUDED.widget_token_sha256`,
    touchAndRelease: `${released}
      UPDATE ${sessions} SET updated_at = $5 WHERE ${SESSION_KEY} AND EXISTS (SELECT 1 FROM released)`,
    deleteAndRelease: `${released}, deleted AS (
        DELETE FROM ${sessions} WHERE ${SESSION_KEY} AND EXISTS (SELECT 1 FROM released))
      SELECT EXISTS (SELECT 1 FROM released) AS held`,
    openWidget: `INSERT INTO ${sessions} (app_name, user_id, session_id, state, events, transcript, created_at, updated_at, widget_token_sha256)
      VALUES ($1, $2, $3, '{}', '[]', '[]', $4, $4, $5) ON CONFLICT DO NOTHING`,
    count: `SELECT count(*)::int AS n FROM ${sessions} WHERE app_name = $1 AND user_id = $2 AND updated_at >= $3`,
  };
}

/**
 * Sessions in PostgreSQL, for any number of instances. A turn queues in this process (429 beyond
 * the limit), claims the session's lease, reads the row, runs holding no connection, and writes
 * the row back in the statement that gives the lease back, if still its own (`releasing`).
 */
export class PostgresSessionTurns implements SessionTurns {
  private readonly queues: SessionQueues;
  private readonly sql: ReturnType<typeof statements>;

  constructor(private readonly options: PostgresSessionTurnsOptions) {
    this.queues = new SessionQueues(options.maxQueuedPerSession);
    this.sql = statements(options.schema);
  }

  /** Live sessions in the table (expired rows the sweep has not reached yet are not counted). */
  async count(): Promise<number> {
    const { pool, appName, userId } = this.options;
    const values = [appName, userId, this.cutoff()];
    const { rows } = await pool.query<{ n: number }>(this.sql.count, values);
    return rows[0]?.n ?? 0;
  }

  queued(sessionId: string): number {
    return this.queues.pending(sessionId);
  }

  runTurn<T>(
    sessionId: string,
    turn: (transcript: TurnTranscript) => Promise<T>,
    access?: SessionAccess,
  ): Promise<T> {
    return this.queues.runLimited(sessionId, () =>
      this.leased(sessionId, async (lease) => {
        const { appName, userId, clock, sessionService } = this.options;
        const stored = await this.read(sessionId);
        const session: Session = {
          id: sessionId,
          appName,
          userId,
          state: stored?.state ?? {},
          events: stored?.events ?? [],
          lastUpdateTime: stored?.updated_at.getTime() ?? clock(),
        };
        const transcript = new Transcript(this.options.transcript, stored?.transcript);
        return runTurnSteps(sessionId, access, turn, {
          widgetTokenSha256: stored?.widget_token_sha256,
          open: () => {
            sessionService.checkOut(session);
            return transcript;
          },
          save: (announced) => {
            sessionService.checkIn(session);
            return this.saveAndRelease(lease, { session, transcript, stored, announced });
          },
          failed: () => {
            sessionService.checkIn(session);
            return this.touchAndRelease(lease, stored);
          },
        });
      }),
    );
  }

  async turnsOf(sessionId: string, access?: SessionAccess): Promise<readonly Turn[] | undefined> {
    const row = await this.read(sessionId);
    return row && mayReach(access, row.widget_token_sha256) ? row.transcript : undefined;
  }

  /** An empty row keeping the secret's hash. */
  async openWidgetSession(sessionId: string, widgetTokenSha256: string): Promise<void> {
    const values = [...this.ids(sessionId), new Date(this.options.clock()), widgetTokenSha256];
    const inserted = await this.options.pool.query(this.sql.openWidget, values);
    if (inserted.rowCount !== 1) throw new Error(`Session ${sessionId} exists already.`);
  }

  delete(sessionId: string): Promise<void> {
    return this.queues.runLimited(sessionId, () =>
      this.leased(sessionId, async (lease) => {
        lease.stop();
        const { rows } = await this.options.pool.query<{ held: boolean }>(
          this.sql.deleteAndRelease,
          lease.key,
        );
        lease.given = true;
        if (!rows[0]?.held) throw sessionTakenOver(sessionId);
      }),
    );
  }

  /** Deletes idle sessions past the TTL, unless another instance is sweeping right now. */
  evictExpired(): Promise<number> {
    const { pool, schema, appName, userId } = this.options;
    return sweepIdleSessions(pool, schema, { appName, userId }, this.cutoff());
  }

  /** Runs `task` holding the session's lease, given back if the task throws before it does. */
  private async leased<T>(
    sessionId: string,
    task: (lease: SessionLease) => Promise<T>,
  ): Promise<T> {
    const { leases, appName, userId } = this.options;
    const lease = await leases.claim(appName, userId, sessionId);
    try {
      return await task(lease);
    } catch (error) {
      if (!lease.given) await leases.give(lease);
      throw error;
    } finally {
      lease.stop();
    }
  }

  /** The turn's one write, if the lease is still its own; what it announced commits with it. */
  private async saveAndRelease(
    lease: SessionLease,
    turn: {
      session: Session;
      transcript: Transcript;
      stored: StoredRow | undefined;
      announced: WebhookEvent[];
    },
  ): Promise<void> {
    const { session, transcript, stored, announced } = turn;
    lease.stop();
    const now = new Date(this.options.clock());
    const events = this.options.sessionService.condensed(session.events);
    const values = [
      ...lease.key,
      storableJson(session.state),
      storableJson(events),
      storableJson(transcript.turns),
      stored?.created_at ?? now,
      now,
      stored?.widget_token_sha256 ?? null,
    ];
    const { pool, outbox } = this.options;
    const saved = await (outbox && announced.length > 0
      ? withTransaction(pool, async (client) => {
          const row = await client.query(this.sql.saveAndRelease, values);
          if (row.rowCount === 1) await outbox.publish(announced, client);
          return row;
        })
      : pool.query(this.sql.saveAndRelease, values));
    lease.given = true;
    if (saved.rowCount !== 1) throw sessionTakenOver(session.id);
  }

  /** A failed turn changes nothing but still counts as a use of a session that exists. */
  private async touchAndRelease(lease: SessionLease, stored: StoredRow | undefined) {
    const { pool, clock, leases } = this.options;
    if (!stored) return leases.give(lease);
    lease.stop();
    lease.given = true;
    // The turn's own failure is what its client hears; an unreleased lease expires by itself.
    await pool
      .query(this.sql.touchAndRelease, [...lease.key, new Date(clock())])
      .catch(() => undefined);
  }

  /** The session's row, unless it expired. */
  private async read(sessionId: string): Promise<StoredRow | undefined> {
    const values = [...this.ids(sessionId), this.cutoff()];
    const { rows } = await this.options.pool.query<StoredRow>(this.sql.read, values);
    return rows[0];
  }

  private ids(sessionId: string): [string, string, string] {
    return [this.options.appName, this.options.userId, sessionId];
  }

  private cutoff(): Date {
    return new Date(this.options.clock() - this.options.ttlMs);
  }
}
