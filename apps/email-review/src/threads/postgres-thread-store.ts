import type pg from 'pg';
import { NO_THREAD_WEBHOOKS, type ThreadWebhooks } from '../webhooks/thread-webhooks.js';
import type { Thread, ThreadStatus } from './thread.js';
import type { HistoryEvent } from './thread-history.js';
import type { ListQuery, ThreadPage, ThreadStore } from './thread-store.js';
import { eventsParam, writeRecordingEvents } from './postgres-thread-history.js';
import { finishModelJobSql, type PostgresModelJobs } from '../jobs/postgres-model-jobs.js';
import type { ModelJob } from '../jobs/model-jobs.js';
import { table } from '../db/tables.js';
import type { OneRowPostgresSaver } from '../patches/langgraph-checkpoint-postgres-one-row-checkpoints.js';
import type { StatementPart } from '../persistence/statement-part.js';

interface ViewRow {
  view: Thread;
}

/** The thread index in PostgreSQL, beside the checkpoint tables. One round trip per call on the common paths. */
type Write = 'insert' | 'save' | 'decide';

/** The thread index in PostgreSQL, beside the checkpoint tables. One round trip per call on the common paths. */
export class PostgresThreadStore implements ThreadStore {
  private readonly sql: Record<'byKey' | 'get' | 'list', string>;
  private readonly threadsTable: string;
  /** Each write's statement, given its webhook parameters' count and more CTEs, if any. */
  private readonly writes: Record<Write, (published: number, extra?: StatementPart) => string>;

  constructor(
    private readonly pool: pg.Pool,
    schema: string,
    /** The webhook events a write's history reports are published by the write's own statement. */
    private readonly webhooks: ThreadWebhooks = NO_THREAD_WEBHOOKS,
    /** A new thread's model job is sent by the thread's insert (its data: $6). */
    modelJobs?: Pick<PostgresModelJobs, 'sendSql'>,
    /** Reads a thread's latest checkpoint with its view (getForDecision). */
    private readonly checkpoints?: Pick<OneRowPostgresSaver, 'latestWithView'>,
  ) {
    const threads = (this.threadsTable = table(schema, 'email_threads'));
    // Each write appends its history events in the same statement (src/threads/postgres-thread-history.ts).
    const writes: Record<Write, [string, number]> = {
      insert: [
        `INSERT INTO ${threads} (thread_id, status, idempotency_key, view) VALUES ($1, $2, $3, $4)
         ON CONFLICT (idempotency_key) DO NOTHING RETURNING thread_id`,
        6,
      ],
      save: [
        `UPDATE ${threads} SET status = $2, view = $3, delivery_status = $4 WHERE thread_id = $1
         RETURNING thread_id`,
        5,
      ],
      // Compare-and-set on status and revision: the row lock also orders concurrent decisions.
      // $8: the model job whose result this is (or null), deleted whatever the compare-and-set finds.
      decide: [
        `UPDATE ${threads} SET status = $2, view = $3, delivery_status = $4 WHERE thread_id = $1
           AND status = $7 AND (view->>'revision')::int = $6
         RETURNING thread_id`,
        8,
      ],
    };
    // A write alone, or with the webhook events its history reports (parameters after its own),
    // and with more CTEs (a decision's checkpoint writes) after those.
    const statement =
      ([write, params]: [string, number], more?: string, answer?: string) =>
      (publishing: number, extra?: (first: number) => string) =>
        writeRecordingEvents(
          schema,
          write,
          '$5',
          [
            more,
            publishing > 0 && webhooks.ctes('written', params + 1),
            extra?.(params + publishing + 1),
          ]
            .filter(Boolean)
            .join(', '),
          answer,
        );
    const both = (build: ReturnType<typeof statement>) => {
      const built = new Map<number, string>();
      return (published: number, extra?: StatementPart) => {
        if (extra) return build(published, (first) => extra.ctes('written', first));
        if (!built.has(published)) built.set(published, build(published));
        return built.get(published)!;
      };
    };
    this.writes = {
      insert: modelJobs
        ? both(
            statement(
              writes.insert,
              modelJobs.sendSql('written', '$6'),
              'SELECT thread_id, (SELECT id FROM model_job) AS job_id FROM written',
            ),
          )
        : both(statement(writes.insert)),
      save: both(statement(writes.save)),
      decide: both(statement(writes.decide, `finished AS (${finishModelJobSql(schema, '$8')})`)),
    };
    this.sql = {
      byKey: `SELECT view FROM ${threads} WHERE idempotency_key = $1`,
      get: `SELECT view FROM ${threads} WHERE thread_id = $1`,
      list: `SELECT seq, view FROM ${threads}
             WHERE ($1::text IS NULL OR status = $1) AND ($2::bigint IS NULL OR seq < $2)
               AND ($4::text IS NULL OR delivery_status = $4)
             ORDER BY seq DESC LIMIT $3`,
    };
  }

  async create(
    thread: Thread,
    idempotencyKey?: string,
    events?: readonly HistoryEvent[],
    client: pg.PoolClient | pg.Pool = this.pool,
    modelJob?: ModelJob,
  ) {
    const inserted = await this.write(client, thread, events, 'insert', [
      thread.thread_id,
      thread.status,
      idempotencyKey ?? null,
      thread,
      eventsParam(events),
      modelJob ? JSON.stringify(modelJob) : null,
    ]);
    const row = inserted.rows[0] as { job_id?: string | null } | undefined;
    if (row) return { thread, created: true, jobId: row.job_id ?? undefined };
    // The key is taken (possibly by a request that committed a moment ago): answer with its thread.
    const existing = await client.query<ViewRow>(this.sql.byKey, [idempotencyKey]);
    return { thread: existing.rows[0]!.view, created: false };
  }

  async getForDecision(threadId: string) {
    if (!this.checkpoints) return { thread: await this.get(threadId) };
    const { view, tuple } = await this.checkpoints.latestWithView<Thread>(
      threadId,
      this.threadsTable,
    );
    return { thread: view, latest: { tuple } };
  }

  async get(threadId: string) {
    const result = await this.pool.query<ViewRow>(this.sql.get, [threadId]);
    return result.rows[0]?.view;
  }

  async save(thread: Thread, events?: readonly HistoryEvent[]) {
    await this.write(this.pool, thread, events, 'save', [
      thread.thread_id,
      thread.status,
      thread,
      thread.delivery?.status ?? null,
      eventsParam(events),
    ]);
  }

  async saveDecision(
    view: Thread,
    revision: number,
    events: readonly HistoryEvent[],
    client: pg.PoolClient | pg.Pool = this.pool,
    from: ThreadStatus = 'awaiting_review',
    modelJob?: string,
    checkpoint?: StatementPart,
  ) {
    const saved = await this.write(
      client,
      view,
      events,
      'decide',
      [
        view.thread_id,
        view.status,
        view,
        view.delivery?.status ?? null,
        eventsParam(events),
        revision,
        from,
        modelJob ?? null,
      ],
      checkpoint,
    );
    return saved.rowCount === 1;
  }

  /**
   * Runs one of the writes above, with the webhook events its history reports when there are any,
   * and `extra`'s CTEs (a decision's checkpoint writes) when given.
   */
  private write(
    client: pg.PoolClient | pg.Pool,
    view: Thread,
    events: readonly HistoryEvent[] | undefined,
    write: Write,
    params: unknown[],
    extra?: StatementPart,
  ): Promise<pg.QueryResult> {
    const published = (events && this.webhooks.params(view, events)) ?? [];
    return client.query(this.writes[write](published.length, extra), [
      ...params,
      ...published,
      ...(extra?.params ?? []),
    ]);
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
}
