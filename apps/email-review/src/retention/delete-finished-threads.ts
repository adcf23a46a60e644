import { withTransaction } from '@repo/pg-kit';
import type pg from 'pg';
import { queueSchema, table } from '../db/tables.js';

/** Before when a thread's last change must be for it to go, by how it ended. */
interface RetentionCutoffs {
  /** Rejected, or sent and its reply delivered or logged: nothing more will happen to it. */
  finished: Date;
  /** Its reply did not go out (delivery failed, no recipient) or its draft failed: a reviewer may still redeliver or retry it. */
  unsent: Date;
}

/**
 * Deletes, in one short transaction, up to `limit` threads past their cutoff with every row of
 * theirs: each table with a `thread_id` column (checkpoints, deliveries, history, any added later),
 * their queue jobs, and last their index row. Threads awaiting review, drafting, or with a delivery
 * still queued are never picked. Returns how many went.
 */
export function finishedThreadDeleter(pool: pg.Pool, schema: string) {
  const threads = table(schema, 'email_threads');
  const deliveries = table(schema, 'email_deliveries');
  const queue = queueSchema(schema);
  // Rows another transaction holds are skipped (next run takes them): nothing here ever waits.
  // No cutoff (NULL) for any other state: the comparison is never true.
  const pick = `SELECT t.thread_id FROM ${threads} t LEFT JOIN ${deliveries} d USING (thread_id)
                WHERE GREATEST((t.view->>'updated_at')::timestamptz, d.delivered_at, d.updated_at) <
                  CASE WHEN t.status = 'rejected' OR d.status IN ('delivered', 'logged') THEN $1::timestamptz
                       WHEN t.status = 'failed' OR d.status IN ('failed', 'no_recipient') THEN $2::timestamptz
                  END
                ORDER BY t.seq LIMIT $3
                FOR UPDATE OF t SKIP LOCKED`;
  const ownedTables = `SELECT c.table_name FROM information_schema.columns c
                       JOIN information_schema.tables t USING (table_schema, table_name)
                       WHERE c.table_schema = $1 AND c.column_name = 'thread_id'
                         AND t.table_type = 'BASE TABLE' AND c.table_name <> 'email_threads'`;
  const queueTables = `SELECT table_name FROM information_schema.tables
                       WHERE table_schema = $1 AND table_name IN ('job', 'archive')`;

  return (cutoffs: RetentionCutoffs, limit: number): Promise<number> =>
    withTransaction(pool, async (client) => {
      const picked = await client.query<{ thread_id: string }>(pick, [
        cutoffs.finished,
        cutoffs.unsent,
        limit,
      ]);
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
