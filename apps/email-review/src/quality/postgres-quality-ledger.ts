import type pg from 'pg';
import { table } from '../db/tables.js';
import type { Transaction } from '../persistence/transaction.js';
import type { DecisionFilter, DecisionRecord, QualityLedger } from './quality-ledger.js';

/** One row per decided thread; no foreign key: the figures outlive the threads retention deletes. */
export function qualityTablesMigration(schema: string): string {
  const decisions = table(schema, 'email_draft_decisions');
  return `
    CREATE TABLE IF NOT EXISTS ${decisions} (
      thread_id text PRIMARY KEY,
      outcome text NOT NULL,
      decided_at timestamptz NOT NULL,
      edited boolean,
      edit_distance double precision,
      decision_ms bigint,
      category text,
      model text,
      pipeline_version text,
      reason text,
      note text
    );
    CREATE INDEX IF NOT EXISTS email_draft_decisions_at ON ${decisions} (decided_at);`;
}

interface DecisionRow extends Omit<DecisionRecord, 'decided_at' | 'decision_ms'> {
  decided_at: Date;
  decision_ms: string | null;
}

export class PostgresQualityLedger implements QualityLedger {
  private readonly sql: Record<'insert' | 'list', string>;

  constructor(
    private readonly pool: pg.Pool,
    schema: string,
  ) {
    const decisions = table(schema, 'email_draft_decisions');
    this.sql = {
      insert: `INSERT INTO ${decisions} (thread_id, outcome, decided_at, edited, edit_distance, decision_ms,
                 category, model, pipeline_version, reason, note)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (thread_id) DO NOTHING`,
      list: `SELECT * FROM ${decisions}
             WHERE ($1::timestamptz IS NULL OR decided_at >= $1) AND ($2::text IS NULL OR category = $2)
             ORDER BY decided_at`,
    };
  }

  async record(tx: Transaction, d: DecisionRecord): Promise<void> {
    await (tx.client ?? this.pool).query(this.sql.insert, [
      d.thread_id,
      d.outcome,
      d.decided_at,
      d.edited,
      d.edit_distance,
      d.decision_ms,
      d.category,
      d.model,
      d.pipeline_version,
      d.reason,
      d.note,
    ]);
  }

  async list(filter: DecisionFilter): Promise<DecisionRecord[]> {
    const { rows } = await this.pool.query<DecisionRow>(this.sql.list, [
      filter.since ?? null,
      filter.category ?? null,
    ]);
    return rows.map((row) => ({
      ...row,
      decided_at: row.decided_at.toISOString(),
      decision_ms: row.decision_ms === null ? null : Number(row.decision_ms),
    }));
  }
}
