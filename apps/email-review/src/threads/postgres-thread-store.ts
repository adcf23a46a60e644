import type pg from 'pg';
import type { Transaction } from '../persistence/transaction.js';
import type { ThreadWebhooks } from '../webhooks/thread-webhooks.js';
import type { HistoryEvent, ThreadHistory } from './thread-history.js';
import { countsByStatus, type Thread } from './thread.js';
import type {
  ListQuery,
  NewThread,
  ThreadChange,
  ThreadPage,
  ThreadStore,
} from './thread-store.js';
import { table } from '../db/tables.js';

/** The history table, in append order (`seq`). */
const historyTable = (schema: string) => table(schema, 'email_thread_history');

/**
 * `email_thread_history`: one row per write's events, append-only (a trigger refuses UPDATE); rows
 * go with their thread (ON DELETE CASCADE: how retention removes them).
 */
export function threadHistoryMigration(schema: string): string {
  const history = historyTable(schema);
  const refuse = `"${schema}".email_thread_history_append_only`;
  return `
    CREATE TABLE IF NOT EXISTS ${history} (
      seq bigserial PRIMARY KEY,
      thread_id text NOT NULL REFERENCES ${table(schema, 'email_threads')} (thread_id) ON DELETE CASCADE,
      type text NOT NULL,
      event jsonb NOT NULL
    );
    CREATE INDEX IF NOT EXISTS email_thread_history_thread ON ${history} (thread_id, seq);
    CREATE OR REPLACE FUNCTION ${refuse}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'email_thread_history is append-only'; END $$;
    DROP TRIGGER IF EXISTS email_thread_history_append_only ON ${history};
    CREATE TRIGGER email_thread_history_append_only BEFORE UPDATE ON ${history}
      FOR EACH ROW EXECUTE FUNCTION ${refuse}();`;
}

type ViewRow = { view: Thread };

/** The thread index in PostgreSQL (`email_threads`), beside the checkpoint tables, and the history. */
export class PostgresThreadStore implements ThreadStore {
  private readonly sql: Record<
    'insert' | 'decide' | 'byKey' | 'get' | 'list' | 'counts' | 'history' | 'append',
    string
  >;

  /** One row per write, `event` its events in order (older one-event rows read the same). */
  readonly history: ThreadHistory = {
    list: async (threadId) => {
      const result = await this.pool.query<{ event: HistoryEvent | HistoryEvent[] }>(
        this.sql.history,
        [threadId],
      );
      return result.rows.flatMap((row) => row.event);
    },
  };

  constructor(
    private readonly pool: pg.Pool,
    schema: string,
    /** The webhook events appended history reports, published in the same transaction (none: no endpoints). */
    private readonly webhooks?: ThreadWebhooks,
  ) {
    const threads = table(schema, 'email_threads');
    this.sql = {
      insert: `INSERT INTO ${threads} (thread_id, status, idempotency_key, view) VALUES ($1, $2, $3, $4)
               ON CONFLICT (idempotency_key) DO NOTHING`,
      // Compare-and-set on status and revision: the row lock also orders concurrent decisions.
      decide: `UPDATE ${threads} SET status = $2, view = $3, delivery_status = $4
               WHERE thread_id = $1 AND status = $5 AND (view->>'revision')::int = $6`,
      byKey: `SELECT view FROM ${threads} WHERE idempotency_key = $1`,
      get: `SELECT view FROM ${threads} WHERE thread_id = $1`,
      list: `SELECT seq, view FROM ${threads}
             WHERE ($1::text IS NULL OR status = $1) AND ($2::bigint IS NULL OR seq < $2)
               AND ($4::text IS NULL OR delivery_status = $4)
             ORDER BY seq DESC LIMIT $3`,
      // Two indexed counts in one round trip: the status index and the due-deliveries partial index.
      counts: `SELECT status, count(*)::int AS n FROM ${threads} GROUP BY status
               UNION ALL
               SELECT '~queued', count(*)::int FROM ${table(schema, 'email_deliveries')} WHERE status = 'queued'`,
      history: `SELECT event FROM ${historyTable(schema)} WHERE thread_id = $1 ORDER BY seq`,
      append: `INSERT INTO ${historyTable(schema)} (thread_id, type, event) VALUES ($1, $2, $3)`,
    };
  }

  /**
   * Appends to the history in the caller's transaction (this store's writes, the deliveries'), with
   * the webhook events about `written`, the view the write left.
   */
  async appendHistory(
    client: pg.PoolClient,
    threadId: string,
    events: readonly HistoryEvent[],
    written: Thread | undefined,
  ): Promise<void> {
    if (events.length === 0) return;
    const types = events.map((event) => event.type).join(' ');
    await client.query(this.sql.append, [threadId, types, JSON.stringify(events)]);
    if (written && this.webhooks) await this.webhooks.publish(written, events, client);
  }

  async create(tx: Transaction, { thread, idempotencyKey, events }: NewThread) {
    const client = tx.client!;
    const key = idempotencyKey ?? null;
    const inserted = await client.query(this.sql.insert, [
      thread.thread_id,
      thread.status,
      key,
      thread,
    ]);
    if (inserted.rowCount === 1) {
      await this.appendHistory(client, thread.thread_id, events, thread);
      return { thread, created: true };
    }
    // The key is taken (possibly by a request that committed a moment ago): answer with its thread.
    const existing = await client.query<ViewRow>(this.sql.byKey, [key]);
    return { thread: existing.rows[0]!.view, created: false };
  }

  async get(threadId: string) {
    const result = await this.pool.query<ViewRow>(this.sql.get, [threadId]);
    return result.rows[0]?.view;
  }

  async saveDecision(tx: Transaction, { view, revision, from, events }: ThreadChange) {
    const client = tx.client!;
    const saved = await client.query(this.sql.decide, [
      view.thread_id,
      view.status,
      view,
      view.delivery?.status ?? null,
      from,
      revision,
    ]);
    if (saved.rowCount !== 1) return false;
    await this.appendHistory(client, view.thread_id, events, view);
    return true;
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

  async counts() {
    const { rows } = await this.pool.query<{ status: string; n: number }>(this.sql.counts);
    const counted = new Map(rows.map(({ status, n }) => [status, n]));
    return {
      threads: countsByStatus((status) => counted.get(status) ?? 0),
      queuedDeliveries: counted.get('~queued') ?? 0,
    };
  }
}
