import { withTransaction } from '@repo/pg-kit';
import type pg from 'pg';
import { queueSchema, table } from '../db/tables.js';

/**
 * Deletes, in one short transaction, up to `limit` finished threads — rejected, or sent and
 * delivered — that finished before `cutoff`, with every row that belongs to them: each table of the
 * schema with a `thread_id` column (LangGraph's checkpoints, blobs and writes, the delivery record,
 * a history, whatever is added later), their queue jobs (live and archived), and last their index
 * row. A thread is finished when its last change was made: the later of its view's `updated_at` and
 * its delivery. Returns how many threads went.
 */
export function finishedThreadDeleter(pool: pg.Pool, schema: string) {
  const threads = table(schema, 'email_threads');
  const deliveries = table(schema, 'email_deliveries');
  const queue = queueSchema(schema);
  // Rows another transaction holds are skipped (next run takes them): nothing here ever waits.
  const pick = `SELECT t.thread_id FROM ${threads} t LEFT JOIN ${deliveries} d USING (thread_id)
                WHERE (t.status = 'rejected' OR (t.status = 'sent' AND d.status = 'delivered'))
                  AND GREATEST((t.view->>'updated_at')::timestamptz, d.delivered_at) < $1
                ORDER BY t.seq LIMIT $2
                FOR UPDATE OF t SKIP LOCKED`;
  const ownedTables = `SELECT c.table_name FROM information_schema.columns c
                       JOIN information_schema.tables t USING (table_schema, table_name)
                       WHERE c.table_schema = $1 AND c.column_name = 'thread_id'
                         AND t.table_type = 'BASE TABLE' AND c.table_name <> 'email_threads'`;
  const queueTables = `SELECT table_name FROM information_schema.tables
                       WHERE table_schema = $1 AND table_name IN ('job', 'archive')`;

  return (cutoff: Date, limit: number): Promise<number> =>
    withTransaction(pool, async (client) => {
      const picked = await client.query<{ thread_id: string }>(pick, [cutoff, limit]);
      const ids = picked.rows.map((row) => row.thread_id);
      if (ids.length === 0) return 0;
      // Looked up each batch: a table added by a later migration (or another instance) counts at once.
      const owned = await client.query<{ table_name: string }>(ownedTables, [schema]);
      for (const { table_name } of owned.rows)
        await client.query(`DELETE FROM ${table(schema, table_name)} WHERE thread_id = ANY($1)`, [
          ids,
        ]);
      const jobs = await client.query<{ table_name: string }>(queueTables, [queue]);
      for (const { table_name } of jobs.rows)
        await client.query(
          `DELETE FROM ${table(queue, table_name)} WHERE data->>'thread_id' = ANY($1)`,
          [ids],
        );
      await client.query(`DELETE FROM ${threads} WHERE thread_id = ANY($1)`, [ids]);
      return ids.length;
    });
}
