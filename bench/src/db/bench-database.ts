import pg from 'pg';

export interface StorageTotals {
  rows: number;
  bytes: number;
  /** Rows per table, for the report's notes. */
  tables: Record<string, number>;
}

/**
 * A dedicated schema for one bench run in the given database, dropped at the end: the bench
 * never touches tables it did not create.
 */
export class BenchDatabase {
  private constructor(
    readonly url: string,
    readonly schema: string,
    private readonly pool: pg.Pool,
  ) {}

  static async create(url: string, schema: string): Promise<BenchDatabase> {
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    try {
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await pool.query(`CREATE SCHEMA "${schema}"`);
    } catch (err) {
      await pool.end();
      throw err;
    }
    return new BenchDatabase(url, schema, pool);
  }

  /** True when a PostgreSQL server answers at `url`. */
  static async reachable(url: string): Promise<boolean> {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  /**
   * VACUUM ANALYZE of every table in the schema: after a bulk seed the planner must see the tables
   * as a long-running deployment's autovacuum would have left them, not as empty ones.
   */
  async vacuumAnalyze(): Promise<void> {
    for (const name of await this.tables())
      await this.pool.query(`VACUUM ANALYZE ${this.qualified(name)}`);
  }

  /** Live rows and bytes on disk (heap, TOAST and indexes) of every table in the schema. */
  async totals(): Promise<StorageTotals> {
    const tables: Record<string, number> = {};
    let rows = 0;
    let bytes = 0;
    for (const name of await this.tables()) {
      const result = await this.pool.query<{ n: string; size: string }>(
        `SELECT count(*) AS n, pg_total_relation_size('${this.qualified(name)}') AS size FROM ${this.qualified(name)}`,
      );
      const n = Number(result.rows[0]?.n ?? 0);
      tables[name] = n;
      rows += n;
      bytes += Number(result.rows[0]?.size ?? 0);
    }
    return { rows, bytes, tables };
  }

  /** Threads in the service's index table. */
  async threadCount(): Promise<number> {
    const result = await this.pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM ${this.qualified('email_threads')}`,
    );
    return Number(result.rows[0]?.n ?? 0);
  }

  /**
   * Row writes (inserts + updates + deletes) and index/sequential scans on the schema's tables since
   * it was created, from pg_stat_user_tables. A backend reports its counts when it exits at the
   * latest, so read this after the service closed its pool.
   */
  async activity(): Promise<{ writes: number; scans: number }> {
    const result = await this.pool.query<{ writes: string | null; scans: string | null }>(
      `SELECT sum(n_tup_ins + n_tup_upd + n_tup_del) AS writes, sum(coalesce(seq_scan, 0) + coalesce(idx_scan, 0)) AS scans
       FROM pg_stat_user_tables WHERE schemaname = $1`,
      [this.schema],
    );
    return {
      writes: Number(result.rows[0]?.writes ?? 0),
      scans: Number(result.rows[0]?.scans ?? 0),
    };
  }

  /** Any thread the service recorded as sent: the template for `cloneThread`. */
  async completedThreadId(): Promise<string> {
    const result = await this.pool.query<{ thread_id: string }>(
      `SELECT thread_id FROM ${this.qualified('email_threads')} WHERE status = 'sent' LIMIT 1`,
    );
    const id = result.rows[0]?.thread_id;
    if (!id) throw new Error('no completed thread to clone');
    return id;
  }

  /**
   * Clones every row that belongs to `templateThreadId` (in every table with a `thread_id` column)
   * `copies` times under fresh ids, rewriting the id inside text and JSON columns too and letting
   * serial columns take new values. Much faster than driving the API, and the rows are exactly what
   * a completed lifecycle leaves.
   */
  async cloneThread(templateThreadId: string, copies: number): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        `CREATE TEMP TABLE bench_ids ON COMMIT DROP AS
         SELECT gen_random_uuid()::text AS id FROM generate_series(1, $1)`,
        [copies],
      );
      for (const name of await this.tablesReferencedFirst()) {
        const columns = await client.query<{
          column_name: string;
          data_type: string;
          column_default: string | null;
        }>(
          `SELECT column_name, data_type, column_default FROM information_schema.columns
           WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position`,
          [this.schema, name],
        );
        if (!columns.rows.some((c) => c.column_name === 'thread_id')) continue;
        const copied = columns.rows.filter((c) => !(c.column_default ?? '').startsWith('nextval('));
        const select = copied.map((c) => {
          const col = `t."${c.column_name}"`;
          if (c.column_name === 'thread_id') return 'ids.id';
          if (c.data_type === 'jsonb' || c.data_type === 'json')
            return `replace(${col}::text, $1, ids.id)::${c.data_type}`;
          if (c.data_type === 'text' || c.data_type === 'character varying')
            return `replace(${col}, $1, ids.id)`;
          return col;
        });
        await client.query(
          `INSERT INTO ${this.qualified(name)} (${copied.map((c) => `"${c.column_name}"`).join(', ')})
           SELECT ${select.join(', ')} FROM ${this.qualified(name)} t CROSS JOIN bench_ids ids WHERE t.thread_id = $1`,
          [templateThreadId],
        );
      }
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  async drop(): Promise<void> {
    try {
      await this.pool.query(`DROP SCHEMA IF EXISTS "${this.schema}" CASCADE`);
      // email-review's pg-boss keeps its queues beside the schema it is given, in `<schema>_pgboss`.
      await this.pool.query(`DROP SCHEMA IF EXISTS "${this.schema}_pgboss" CASCADE`);
    } finally {
      await this.pool.end();
    }
  }

  private async tables(): Promise<string[]> {
    const result = await this.pool.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE' ORDER BY table_name`,
      [this.schema],
    );
    return result.rows.map((r) => r.table_name);
  }

  /** The tables, each after every table its foreign keys point at (so copies insert in order). */
  private async tablesReferencedFirst(): Promise<string[]> {
    const references = await this.pool.query<{ child: string; parent: string }>(
      `SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent
       FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
       WHERE c.contype = 'f' AND n.nspname = $1`,
      [this.schema],
    );
    const bare = (name: string) => name.split('.').pop()!.replace(/"/g, '');
    const parents = new Map<string, string[]>();
    for (const { child, parent } of references.rows) {
      parents.set(bare(child), [...(parents.get(bare(child)) ?? []), bare(parent)]);
    }
    const ordered: string[] = [];
    const visit = (name: string) => {
      if (ordered.includes(name)) return;
      for (const parent of parents.get(name) ?? []) if (parent !== name) visit(parent);
      ordered.push(name);
    };
    for (const name of await this.tables()) visit(name);
    return ordered;
  }

  private qualified(name: string): string {
    return `"${this.schema}"."${name}"`;
  }
}
