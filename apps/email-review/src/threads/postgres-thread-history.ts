import type pg from 'pg';
import type { HistoryEvent, ThreadHistory } from './thread-history.js';
import { table } from '../db/tables.js';
import { NO_THREAD_WEBHOOKS, type ThreadWebhooks } from '../webhooks/thread-webhooks.js';
import type { Thread } from './thread.js';

/** The history table: one row per event, in append order (`seq`). */
export const historyTable = (schema: string) => table(schema, 'email_thread_history');

/**
 * `email_thread_history`: one row per write's events, append-only (an UPDATE is refused by a
 * trigger; rows go only with their thread, ON DELETE CASCADE, which is how retention removes them).
 * Run by the database set-up.
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
 * The insert of the events in `eventsParam` (a jsonb array) for each thread id `source` yields: one
 * row per write, `event` holding the write's events in order and `type` their types
 * (space-separated), none when there are none. Rows written before, holding one event object each,
 * read the same (`list`). The parameter is parsed once.
 */
const insertEvents = (schema: string, source: string, eventsParam: string) =>
  `INSERT INTO ${historyTable(schema)} (thread_id, type, event)
   SELECT source.thread_id,
     (SELECT string_agg(e.value->>'type', ' ' ORDER BY e.n)
      FROM jsonb_array_elements(written_events.events) WITH ORDINALITY AS e(value, n)),
     written_events.events
   FROM ${source} AS source, (SELECT ${eventsParam}::jsonb AS events) AS written_events
   WHERE jsonb_array_length(written_events.events) > 0`;

/**
 * One statement that runs `write` (an INSERT or UPDATE of the thread index `RETURNING thread_id`)
 * and appends the events in `eventsParam` for the row it wrote, so both commit or neither does.
 * Answers the rows `write` returned (none: nothing written, no event).
 */
export function writeRecordingEvents(
  schema: string,
  write: string,
  eventsParam: string,
  /** More CTEs for the same statement (the webhook events it publishes), if any. */
  more = '',
  /** What the statement answers (by default the thread id of the row written). */
  answer = 'SELECT thread_id FROM written',
): string {
  return `WITH written AS (${write}),
    recorded AS (${insertEvents(schema, 'written', eventsParam)})${more ? `, ${more}` : ''}
    ${answer}`;
}

/** A history event list as the jsonb parameter the statements above take. */
export const eventsParam = (events: readonly HistoryEvent[] = []) => JSON.stringify(events);

/** The history in PostgreSQL, read per thread; appended inside the index's and deliveries' writes. */
export class PostgresThreadHistory implements ThreadHistory {
  private readonly sql: { list: string; append: string; publishing: string; view: string };

  constructor(
    private readonly pool: pg.Pool,
    schema: string,
    /** The webhook events appended history reports, published by the append's own statement. */
    private readonly webhooks: ThreadWebhooks = NO_THREAD_WEBHOOKS,
  ) {
    const append = insertEvents(schema, '(SELECT $1::text AS thread_id)', '$2');
    const publishing = webhooks.ctes(undefined, 3);
    this.sql = {
      list: `SELECT event FROM ${historyTable(schema)} WHERE thread_id = $1 ORDER BY seq`,
      append,
      // The append with the webhook events it reports (no endpoint: the append alone).
      publishing: publishing ? `WITH recorded AS (${append}), ${publishing} SELECT 1` : append,
      view: `SELECT view FROM ${table(schema, 'email_threads')} WHERE thread_id = $1`,
    };
  }

  async list(threadId: string): Promise<HistoryEvent[]> {
    const result = await this.pool.query<{ event: HistoryEvent | HistoryEvent[] }>(this.sql.list, [
      threadId,
    ]);
    return result.rows.flatMap((row) => row.event);
  }

  /** Appends inside the caller's transaction (`client` holds it). */
  async appendIn(
    client: pg.PoolClient,
    threadId: string,
    events: readonly HistoryEvent[],
    /** The view this transaction has just written, when the caller has it (saves reading it back). */
    written?: Thread,
  ): Promise<void> {
    if (events.length === 0) return;
    const view = !this.webhooks.reports(events)
      ? undefined
      : (written ??
        (await client.query<{ view: Thread }>(this.sql.view, [threadId])).rows[0]?.view);
    const published = view && this.webhooks.params(view, events);
    await (published
      ? client.query(this.sql.publishing, [threadId, eventsParam(events), ...published])
      : client.query(this.sql.append, [threadId, eventsParam(events)]));
  }
}
