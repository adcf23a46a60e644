import type pg from 'pg';
import type { OrphanedThreads } from '../persistence/persistence.js';
import { table } from './tables.js';

/**
 * `drafting` threads that no live lease covers: every change holds its thread's lease from before the
 * first write until after the last, so such a thread's holder died (or lost the database) mid-change.
 */
export class PostgresOrphans implements OrphanedThreads {
  private readonly sql: Record<'find' | 'count' | 'forget', string>;

  constructor(
    private readonly pool: pg.Pool,
    schema: string,
  ) {
    const threads = table(schema, 'email_threads');
    const leases = table(schema, 'email_thread_leases');
    const recoveries = table(schema, 'email_thread_recoveries');
    this.sql = {
      find: `SELECT t.thread_id FROM ${threads} t
             WHERE t.status = 'drafting'
               AND NOT EXISTS (SELECT 1 FROM ${leases} l WHERE l.thread_id = t.thread_id AND l.expires_at > now())
             ORDER BY t.seq LIMIT $1`,
      count: `INSERT INTO ${recoveries} (thread_id, attempts) VALUES ($1, 1)
              ON CONFLICT (thread_id) DO UPDATE SET attempts = ${recoveries}.attempts + 1
              RETURNING attempts`,
      forget: `DELETE FROM ${recoveries} WHERE thread_id = $1`,
    };
  }

  async find(limit: number): Promise<string[]> {
    const found = await this.pool.query<{ thread_id: string }>(this.sql.find, [limit]);
    return found.rows.map((row) => row.thread_id);
  }

  async countAttempt(threadId: string): Promise<number> {
    const counted = await this.pool.query<{ attempts: number }>(this.sql.count, [threadId]);
    return counted.rows[0]?.attempts ?? 1;
  }

  async forget(threadId: string): Promise<void> {
    await this.pool.query(this.sql.forget, [threadId]);
  }
}
