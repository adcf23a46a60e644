import type pg from 'pg';
import type { OutgoingEmail } from '../mailer/mailer.js';
import type { Outbox } from '../mailer/outbox.js';
import { table } from './tables.js';

/** The outbox as a table keyed by thread: a second send of one thread is refused by the key itself. */
export class PostgresOutbox implements Outbox {
  private readonly insertSql: string;
  private readonly listSql: string;

  constructor(
    private readonly pool: pg.Pool,
    schema: string,
  ) {
    const outbox = table(schema, 'email_outbox');
    this.insertSql = `INSERT INTO ${outbox} (thread_id, text, sent_at) VALUES ($1, $2, $3) ON CONFLICT (thread_id) DO NOTHING`;
    this.listSql = `SELECT thread_id, text, sent_at FROM ${outbox} WHERE $1::text IS NULL OR thread_id = $1 ORDER BY sent_at`;
  }

  async record(email: OutgoingEmail): Promise<boolean> {
    const result = await this.pool.query(this.insertSql, [
      email.thread_id,
      email.text,
      email.sent_at,
    ]);
    return result.rowCount === 1;
  }

  async list(threadId?: string): Promise<OutgoingEmail[]> {
    const result = await this.pool.query<{ thread_id: string; text: string; sent_at: Date }>(
      this.listSql,
      [threadId ?? null],
    );
    return result.rows.map((row) => ({ ...row, sent_at: row.sent_at.toISOString() }));
  }
}
