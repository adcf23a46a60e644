import type pg from 'pg';
import { withTransaction } from '@repo/pg-kit';
import type { Outbox } from '@repo/webhooks';
import { EVENTS_LOCK } from '../db/lock-keys.js';
import {
  EVENTS_PAGE,
  notInQueue,
  type ConversationEvent,
  type Handoff,
  type HandoffChange,
  type HandoffUpdate,
  type Handoffs,
  type NewConversationEvent,
} from './handoffs.js';

/** As pg reads them: timestamps as Dates, bigint ids as strings. */
type HandoffRow = Omit<Handoff, 'requested_at' | 'taken_at' | 'wait_notified_at'> & {
  requested_at: Date;
  taken_at: Date | null;
  wait_notified_at: Date | null;
};
type EventRow = Omit<ConversationEvent, 'id' | 'at'> & { id: string; at: Date };

const iso = (date: Date | null) => (date ? date.toISOString() : null);

const handoffOf = (row: HandoffRow): Handoff => ({
  ...row,
  requested_at: row.requested_at.toISOString(),
  taken_at: iso(row.taken_at),
  wait_notified_at: iso(row.wait_notified_at),
});

const eventOf = (row: EventRow): ConversationEvent => ({
  ...row,
  id: Number(row.id),
  at: row.at.toISOString(),
});

const COLUMNS =
  'session_id, state, operator, reason, ticket_id, summary, requested_at, taken_at, wait_notified_at';
const valuesOf = (entry: Handoff) =>
  COLUMNS.split(', ').map((column) => entry[column as keyof Handoff]);

function statements(schema: string, sessionsTable: string) {
  const handoffs = `"${schema}"."helpdesk_handoffs"`;
  const events = `"${schema}"."helpdesk_conversation_events"`;
  return {
    get: `SELECT ${COLUMNS} FROM ${handoffs} WHERE session_id = $1`,
    lock: `SELECT ${COLUMNS} FROM ${handoffs} WHERE session_id = $1 FOR UPDATE`,
    list: `SELECT ${COLUMNS} FROM ${handoffs} ORDER BY requested_at, session_id`,
    insert: `INSERT INTO ${handoffs} (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
      ON CONFLICT (session_id) DO NOTHING`,
    save: `UPDATE ${handoffs} SET state = $2, operator = $3, taken_at = $4, wait_notified_at = $5
      WHERE session_id = $1`,
    remove: `DELETE FROM ${handoffs} WHERE session_id = $1`,
    orphans: `DELETE FROM ${events} e WHERE NOT EXISTS (SELECT 1 FROM ${sessionsTable} s
      WHERE s.app_name = $1 AND s.user_id = $2 AND s.session_id = e.session_id)`,
    forget: `WITH gone AS (DELETE FROM ${handoffs} WHERE session_id = $1)
      DELETE FROM ${events} WHERE session_id = $1`,
    record: `INSERT INTO ${events} (session_id, type, data, at) VALUES ($1, $2, $3::jsonb, $4)
      RETURNING id, session_id, type, data, at`,
    after: `SELECT id, session_id, type, data, at FROM ${events}
      WHERE id > $1 ORDER BY id LIMIT ${EVENTS_PAGE}`,
    afterIn: `SELECT id, session_id, type, data, at FROM ${events}
      WHERE session_id = $2 AND id > $1 ORDER BY id LIMIT ${EVENTS_PAGE}`,
    cursor: `SELECT coalesce(max(id), 0) AS id FROM ${events}`,
    overdue: `UPDATE ${handoffs} SET wait_notified_at = $2
      WHERE state = 'waiting' AND wait_notified_at IS NULL AND requested_at <= $1
      RETURNING ${COLUMNS}`,
  };
}

/** The queue and the live events in PostgreSQL: every instance sees the same, in one order. */
export class PostgresHandoffs implements Handoffs {
  private readonly sql: ReturnType<typeof statements>;

  constructor(
    private readonly options: {
      pool: pg.Pool;
      schema: string;
      clock: () => number;
      outbox?: Outbox;
      /** The sessions the events belong to: their table and the app's keys. */
      sessions: { table: string; appName: string; userId: string };
    },
  ) {
    this.sql = statements(options.schema, options.sessions.table);
  }

  async get(sessionId: string): Promise<Handoff | undefined> {
    const { rows } = await this.query<HandoffRow>(this.sql.get, [sessionId]);
    return rows[0] && handoffOf(rows[0]);
  }

  async list(): Promise<Handoff[]> {
    const { rows } = await this.query<HandoffRow>(this.sql.list, []);
    return rows.map(handoffOf);
  }

  async request(entry: Handoff, change: HandoffChange): Promise<void> {
    await this.transaction(async (client) => {
      const inserted = await client.query(this.sql.insert, valuesOf(entry));
      if (inserted.rowCount === 1) await this.commit(client, change);
    });
  }

  change(sessionId: string, update: HandoffUpdate): Promise<Handoff | undefined> {
    return this.transaction(async (client) => {
      const { rows } = await client.query<HandoffRow>(this.sql.lock, [sessionId]);
      if (!rows[0]) throw notInQueue(sessionId);
      const next = update(handoffOf(rows[0]));
      if (next.entry) {
        const { state, operator, taken_at, wait_notified_at } = next.entry;
        await client.query(this.sql.save, [sessionId, state, operator, taken_at, wait_notified_at]);
      } else {
        await client.query(this.sql.remove, [sessionId]);
      }
      await this.commit(client, next);
      return next.entry;
    });
  }

  record(event: NewConversationEvent): Promise<ConversationEvent> {
    return this.transaction((client) => this.insertEvent(client, event));
  }

  async eventsAfter(after: number, sessionId?: string) {
    const { rows } = sessionId
      ? await this.query<EventRow>(this.sql.afterIn, [after, sessionId])
      : await this.query<EventRow>(this.sql.after, [after]);
    return rows.map(eventOf);
  }

  async cursor(): Promise<number> {
    const { rows } = await this.query<{ id: string }>(this.sql.cursor, []);
    return Number(rows[0]?.id ?? 0);
  }

  async claimOverdue(before: Date, now: Date): Promise<Handoff[]> {
    const { rows } = await this.query<HandoffRow>(this.sql.overdue, [before, now]);
    return rows.map(handoffOf);
  }

  async forget(sessionId: string): Promise<void> {
    await this.query(this.sql.forget, [sessionId]);
  }

  async forgetOrphanEvents(): Promise<void> {
    const { appName, userId } = this.options.sessions;
    await this.query(this.sql.orphans, [appName, userId]);
  }

  private query<R extends pg.QueryResultRow>(text: string, values: unknown[]) {
    return this.options.pool.query<R>(text, values);
  }

  private transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return withTransaction(this.options.pool, async (client) => {
      // Ids in commit order: one writer of events at a time (they are few: messages, changes).
      await client.query('SELECT pg_advisory_xact_lock($1, $2)', [...EVENTS_LOCK]);
      return work(client);
    });
  }

  private async insertEvent(client: pg.PoolClient, event: NewConversationEvent) {
    const { rows } = await client.query<EventRow>(this.sql.record, [
      event.session_id,
      event.type,
      JSON.stringify(event.data),
      new Date(this.options.clock()),
    ]);
    return eventOf(rows[0]!);
  }

  private async commit(client: pg.PoolClient, change: HandoffChange): Promise<void> {
    await this.insertEvent(client, change.event);
    if (change.announce.length > 0) await this.options.outbox?.publish(change.announce, client);
  }
}
