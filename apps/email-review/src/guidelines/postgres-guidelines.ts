import { withTransaction } from '@repo/pg-kit';
import type pg from 'pg';
import { table } from '../db/tables.js';
import type { Guideline, GuidelineScope, GuidelineSource, ScopeKind } from './guideline.js';
import { scopeKey } from './guideline.js';
import {
  learnedGuideline,
  type GuidelineChange,
  type GuidelineFilter,
  type GuidelineStore,
  type LearnedRule,
} from './guideline-store.js';

/**
 * The guidelines and the derivations already recorded (a rerun of a job finds its id there). Global
 * guidelines have scope_value ''. No foreign key to the threads: retention keeps what was learned.
 */
export function guidelineTablesMigration(schema: string): string {
  const guidelines = table(schema, 'email_guidelines');
  return `
    CREATE TABLE IF NOT EXISTS ${guidelines} (
      id text PRIMARY KEY,
      scope_kind text NOT NULL,
      scope_value text NOT NULL,
      rule text NOT NULL,
      enabled boolean NOT NULL DEFAULT true,
      sources jsonb NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE INDEX IF NOT EXISTS email_guidelines_scope ON ${guidelines} (scope_kind, scope_value);
    CREATE TABLE IF NOT EXISTS ${table(schema, 'email_guideline_derivations')} (
      job_id text PRIMARY KEY,
      thread_id text NOT NULL,
      recorded_at timestamptz NOT NULL DEFAULT now()
    );`;
}

interface GuidelineRow extends Omit<Guideline, 'scope' | 'created_at' | 'updated_at'> {
  scope_kind: ScopeKind;
  scope_value: string;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, scope_kind, scope_value, rule, enabled, sources, created_at, updated_at';

const guidelineOf = (row: GuidelineRow): Guideline => ({
  id: row.id,
  rule: row.rule,
  scope: { kind: row.scope_kind, value: row.scope_kind === 'global' ? null : row.scope_value },
  enabled: row.enabled,
  sources: row.sources,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

export class PostgresGuidelines implements GuidelineStore {
  private readonly sql;

  constructor(
    private readonly pool: pg.Pool,
    schema: string,
  ) {
    const guidelines = table(schema, 'email_guidelines');
    this.sql = {
      // The scopes come most specific first; their position is the precedence.
      forDraft: `SELECT ${COLUMNS} FROM ${guidelines}
                 WHERE enabled AND (scope_kind, scope_value) IN (SELECT * FROM unnest($1::text[], $2::text[]))
                 ORDER BY array_position($1::text[], scope_kind), jsonb_array_length(sources) DESC, updated_at DESC
                 LIMIT $3`,
      list: `SELECT ${COLUMNS} FROM ${guidelines}
             WHERE ($1::text IS NULL OR scope_kind = $1) AND ($2::text IS NULL OR scope_value = $2)
             ORDER BY created_at DESC, id`,
      update: `UPDATE ${guidelines} SET rule = coalesce($2, rule), enabled = coalesce($3, enabled), updated_at = $4
               WHERE id = $1 RETURNING ${COLUMNS}`,
      delete: `DELETE FROM ${guidelines} WHERE id = $1`,
      job: `INSERT INTO ${table(schema, 'email_guideline_derivations')} (job_id, thread_id) VALUES ($1, $2)
            ON CONFLICT (job_id) DO NOTHING`,
      ofScope: `SELECT ${COLUMNS} FROM ${guidelines} WHERE scope_kind = $1 AND scope_value = $2`,
      merge: `UPDATE ${guidelines} SET sources = $2::jsonb, updated_at = $3
              WHERE id = $1 RETURNING ${COLUMNS}`,
      insert: `INSERT INTO ${guidelines} (id, sources, created_at, updated_at, scope_kind, scope_value, rule)
               VALUES ($1, $2::jsonb, $3, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
    };
  }

  async forDraft(scopes: readonly GuidelineScope[], limit: number): Promise<Guideline[]> {
    const { rows } = await this.pool.query<GuidelineRow>(this.sql.forDraft, [
      scopes.map((scope) => scope.kind),
      scopes.map((scope) => scope.value ?? ''),
      limit,
    ]);
    return rows.map(guidelineOf);
  }

  async list(filter: GuidelineFilter): Promise<Guideline[]> {
    const { rows } = await this.pool.query<GuidelineRow>(this.sql.list, [
      filter.kind ?? null,
      filter.value ?? null,
    ]);
    return rows.map(guidelineOf);
  }

  async update(id: string, change: GuidelineChange, at: string) {
    const { rows } = await this.pool.query<GuidelineRow>(this.sql.update, [
      id,
      change.rule ?? null,
      change.enabled ?? null,
      at,
    ]);
    return rows[0] && guidelineOf(rows[0]);
  }

  async delete(id: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(this.sql.delete, [id]);
    return (rowCount ?? 0) > 0;
  }

  /**
   * BEGIN; the job recorded (or found: nothing more); per rule, under a lock of its scope (two
   * instances learning one rule at once would both insert it), merged or inserted; COMMIT.
   */
  learn(
    jobId: string,
    rules: readonly LearnedRule[],
    source: GuidelineSource,
    at: string,
  ): Promise<Guideline[]> {
    return withTransaction(this.pool, async (client) => {
      const recorded = await client.query(this.sql.job, [jobId, source.thread_id]);
      if (recorded.rowCount === 0) return [];
      const learned: Guideline[] = [];
      for (const taught of rules) {
        const { kind, value } = taught.scope;
        await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [
          `email-guidelines:${scopeKey(taught.scope)}`,
        ]);
        const { rows } = await client.query<GuidelineRow>(this.sql.ofScope, [kind, value ?? '']);
        const { id, rule, sources } = learnedGuideline(rows.map(guidelineOf), taught, source, at);
        const values = [id, JSON.stringify(sources), at];
        const written = rows.some((row) => row.id === id)
          ? await client.query<GuidelineRow>(this.sql.merge, values)
          : await client.query<GuidelineRow>(this.sql.insert, [...values, kind, value ?? '', rule]);
        learned.push(guidelineOf(written.rows[0]!));
      }
      return learned;
    });
  }
}
