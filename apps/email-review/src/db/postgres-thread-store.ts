import type pg from 'pg';
import type { Thread, ThreadStatus } from '../threads/thread.js';
import type { HistoryEvent } from '../threads/thread-history.js';
import type { ListQuery, ThreadPage, ThreadStore } from '../threads/thread-store.js';
import { eventsParam, writeRecordingEvents } from './postgres-thread-history.js';
import { table } from './tables.js';

interface ViewRow {
  view: Thread;
}

/** The thread index in PostgreSQL, beside the checkpoint tables. One round trip per call on the common paths. */
export class PostgresThreadStore implements ThreadStore {
  private readonly sql: Record<'insert' | 'byKey' | 'get' | 'save' | 'decide' | 'list', string>;

  constructor(
    private readonly pool: pg.Pool,
    schema: string,
  ) {
    const threads = table(schema, 'email_threads');
    this.sql = {
      // Each write appends its history events in the same statement (src/db/postgres-thread-history.ts).
      insert: writeRecordingEvents(
        schema,
        `INSERT INTO ${threads} (thread_id, status, idempotency_key, view) VALUES ($1, $2, $3, $4)
         ON CONFLICT (idempotency_key) DO NOTHING RETURNING thread_id`,
        '$5',
      ),
      byKey: `SELECT view FROM ${threads} WHERE idempotency_key = $1`,
      get: `SELECT view FROM ${threads} WHERE thread_id = $1`,
      save: writeRecordingEvents(
        schema,
        `UPDATE ${threads} SET status = $2, view = $3, delivery_status = $4 WHERE thread_id = $1
         RETURNING thread_id`,
        '$5',
      ),
      // Compare-and-set on status and revision: the row lock also orders concurrent decisions.
      decide: writeRecordingEvents(
        schema,
        `UPDATE ${threads} SET status = $2, view = $3, delivery_status = $4 WHERE thread_id = $1
           AND status = $7 AND (view->>'revision')::int = $6
         RETURNING thread_id`,
        '$5',
      ),
      list: `SELECT seq, view FROM ${threads}
             WHERE ($1::text IS NULL OR status = $1) AND ($2::bigint IS NULL OR seq < $2)
               AND ($4::text IS NULL OR delivery_status = $4)
             ORDER BY seq DESC LIMIT $3`,
    };
  }

  async create(
    thread: Thread,
    idempotencyKey?: string,
    events?: readonly HistoryEvent[],
    client: pg.PoolClient | pg.Pool = this.pool,
  ) {
    const inserted = await client.query(this.sql.insert, [
      thread.thread_id,
      thread.status,
      idempotencyKey ?? null,
      thread,
      eventsParam(events),
    ]);
    if (inserted.rowCount === 1) return { thread, created: true };
    // The key is taken (possibly by a request that committed a moment ago): answer with its thread.
    const existing = await client.query<ViewRow>(this.sql.byKey, [idempotencyKey]);
    return { thread: existing.rows[0]!.view, created: false };
  }

  async get(threadId: string) {
    const result = await this.pool.query<ViewRow>(this.sql.get, [threadId]);
    return result.rows[0]?.view;
  }

  async save(thread: Thread, events?: readonly HistoryEvent[]) {
    await this.pool.query(this.sql.save, [
      thread.thread_id,
      thread.status,
      thread,
      thread.delivery?.status ?? null,
      eventsParam(events),
    ]);
  }

  async saveDecision(
    view: Thread,
    revision: number,
    events: readonly HistoryEvent[],
    client: pg.PoolClient | pg.Pool = this.pool,
    from: ThreadStatus = 'awaiting_review',
  ) {
    const saved = await client.query(this.sql.decide, [
      view.thread_id,
      view.status,
      view,
      view.delivery?.status ?? null,
      eventsParam(events),
      revision,
      from,
    ]);
    return saved.rowCount === 1;
  }

  async list(query: ListQuery): Promise<ThreadPage> {
    const result = await this.pool.query<ViewRow & { seq: string }>(this.sql.list, [
      query.status ?? null,
      query.before ?? null,
      query.limit + 1,
      query.delivery ?? null,
    ]);
    const rows = result.rows.slice(0, query.limit);
    const more = result.rows.length > query.limit;
    return {
      threads: rows.map((row) => row.view),
      ...(more ? { next: Number(rows[rows.length - 1]!.seq) } : {}),
    };
  }
}
