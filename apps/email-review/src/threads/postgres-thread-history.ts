import type pg from 'pg';
import type { HistoryEvent, ThreadHistory } from './thread-history.js';
import { table } from '../db/tables.js';
import type { ThreadWebhooks } from '../webhooks/thread-webhooks.js';
import type { Thread } from './thread.js';

/** The history table: one row per event, in append order (`seq`). */
export const historyTable = (schema: string) => table(schema, 'email_thread_history');

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

/**
 * The history in PostgreSQL, appended inside the thread index's and deliveries' writes: one row per
 * write, `event` its events in order, `type` their types (older one-event rows read the same).
 */
export class PostgresThreadHistory implements ThreadHistory {
  private readonly sql: { list: string; append: string; view: string };

  constructor(
    private readonly pool: pg.Pool,
    schema: string,
    /** The webhook events appended history reports, published in the same transaction (none: no endpoints). */
    private readonly webhooks?: ThreadWebhooks,
  ) {
    this.sql = {
      list: `SELECT event FROM ${historyTable(schema)} WHERE thread_id = $1 ORDER BY seq`,
      append: `INSERT INTO ${historyTable(schema)} (thread_id, type, event) VALUES ($1, $2, $3)`,
      view: `SELECT view FROM ${table(schema, 'email_threads')} WHERE thread_id = $1`,
    };
  }

  async list(threadId: string): Promise<HistoryEvent[]> {
    const result = await this.pool.query<{ event: HistoryEvent | HistoryEvent[] }>(this.sql.list, [
      threadId,
    ]);
    return result.rows.flatMap((row) => row.event);
  }

  /** Appends in the caller's transaction, with the webhook events; `written`: the view it wrote. */
  async appendIn(
    client: pg.PoolClient,
    threadId: string,
    events: readonly HistoryEvent[],
    written?: Thread,
  ): Promise<void> {
    if (events.length === 0) return;
    const types = events.map((event) => event.type).join(' ');
    await client.query(this.sql.append, [threadId, types, JSON.stringify(events)]);
    if (!this.webhooks?.reports(events)) return;
    const view =
      written ?? (await client.query<{ view: Thread }>(this.sql.view, [threadId])).rows[0]?.view;
    if (view) await this.webhooks.publish(view, events, client);
  }
}
