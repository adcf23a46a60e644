import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import PgBoss from 'pg-boss';
import type pg from 'pg';
import { subscribes, type Endpoint } from '../config/webhook-settings.js';
import { EndpointSlots } from '../sending/endpoint-slots.js';
import {
  attemptDelivery,
  type AttemptDeps,
  type PendingDelivery,
} from '../sending/attempt-delivery.js';
import {
  envelopeOf,
  type Delivery,
  type InStatement,
  type Outbox,
  type TransactionClient,
  type WebhookEvent,
} from './outbox.js';

export interface PostgresOutboxOptions extends AttemptDeps {
  pool: pg.Pool;
  connectionString: string;
  /** The service's schema (the deliveries table). */
  schema: string;
  /** pg-boss's schema (email-review shares its own `<schema>_pgboss`). */
  queueSchema: string;
  /** How often to look for heads of line no job is waking (a job lost to a crash between statements). */
  sweepMs?: number;
  /** How long a taken job may stay active before pg-boss hands it out again (its worker died). */
  jobExpireSeconds?: number;
  pollMs?: number;
}

interface DeliveryRow extends PendingDelivery {
  seq: string;
  endpoint: string;
  status: Delivery['status'];
  last_status: number | null;
  last_error: string | null;
  next_attempt_at: Date | null;
  delivered_at: Date | null;
}

/** The most jobs one fetch takes (one batch: one transaction for all of them). */
const BATCH_MAX = 100;
/** How long a worker lets jobs gather after a fetch that found some (events wait at most this long more). */
const GATHER_MS = 100;

const QUEUE_PREFIX = 'webhooks.';
const queueOf = (endpoint: Endpoint) => `${QUEUE_PREFIX}${endpoint.id}`;
/** A job's own retries (pg-boss's): for a worker that failed a batch, not the delivery's attempts. */
const JOB_RETRY_LIMIT = 5;
const JOB_RETRY_DELAY = 2;

/** pg-boss's statements on the caller's transaction. */
const inTransaction = (client: TransactionClient) => ({
  executeSql: (text: string, values: unknown[]) => client.query(text, values),
});

const view = (row: DeliveryRow): Delivery => ({
  id: row.id,
  endpoint: row.endpoint,
  type: row.type,
  subject: row.subject,
  status: row.status,
  attempts: row.attempts,
  last_status: row.last_status,
  last_error: row.last_error,
  next_attempt_at: row.next_attempt_at?.toISOString() ?? null,
  created_at: row.created_at.toISOString(),
  delivered_at: row.delivered_at?.toISOString() ?? null,
});

const COLUMNS = `id, seq, endpoint, type, subject, body, status, attempts, last_status, last_error,
  next_attempt_at, created_at, delivered_at`;

/**
 * The outbox in PostgreSQL. Publishing inserts one row per subscribed endpoint and a pg-boss job
 * naming it, in one statement: `publish` in the caller's transaction, or `inStatement` inside the
 * very statement that makes the change. Either way the event exists exactly when the change it
 * reports was committed. Each endpoint has its own queue,
 * so its workers (WEBHOOK_CONCURRENCY per instance) are the only ones a slow endpoint can hold up.
 *
 * Order per endpoint and subject is kept by the sender, not the queue: a job attempts its row only
 * if no earlier row of the same endpoint+subject is still pending; otherwise it does nothing, and
 * the earlier row, once settled, wakes the next one. A worker takes the jobs one fetch found as a
 * batch: their rows stay locked (SKIP LOCKED) through their attempts, so two instances never send
 * one at once; a worker that dies loses the locks with its connection, and pg-boss hands its jobs
 * out again after `jobExpireSeconds`. A sweep wakes any head of line that is due and was missed
 * (a crash between a commit and the next wake-up), and deletes settled deliveries past
 * WEBHOOK_RETENTION_DAYS.
 */
export class PostgresOutbox implements Outbox {
  private readonly boss: PgBoss;
  private readonly table: string;
  private readonly sql: Record<string, string>;
  private readonly byId: Map<string, Endpoint>;
  private readonly stopping = new AbortController();
  private readonly slots: EndpointSlots;
  private loops: Promise<void>[] = [];

  constructor(private readonly options: PostgresOutboxOptions) {
    const table = `"${options.schema}"."webhook_deliveries"`;
    this.table = table;
    this.byId = new Map(options.settings.endpoints.map((e) => [e.id, e]));
    this.slots = new EndpointSlots(options.settings.concurrency);
    this.boss = new PgBoss({
      connectionString: options.connectionString,
      schema: options.queueSchema,
      max: 2,
      application_name: 'webhooks-queue',
      maintenanceIntervalSeconds: 5,
      schedule: false,
    });
    this.boss.on('error', (error: unknown) =>
      options.logger.warn({ err: error }, 'webhook queue error'),
    );
    this.sql = {
      // The named deliveries that are due and not being attempted (SKIP LOCKED) and have no
      // pending delivery of their line before them other than each other: a line's rows named
      // together are attempted together, in order.
      take: `WITH named AS (
               SELECT ${COLUMNS} FROM ${table} WHERE id = ANY($1::text[]) AND status = 'pending'
                 AND (next_attempt_at IS NULL OR next_attempt_at <= now())
               FOR UPDATE SKIP LOCKED)
             SELECT * FROM named AS d WHERE NOT EXISTS (SELECT 1 FROM ${table} AS e
               WHERE e.endpoint = d.endpoint AND e.subject = d.subject AND e.seq < d.seq
                 AND e.status = 'pending' AND e.id NOT IN (SELECT id FROM named))
             ORDER BY d.seq`,
      // Settles a batch of attempts; answers, for each line settled for good (none of its rows in
      // the batch still pending), the next pending delivery not in the batch, to wake once this
      // commits (the main query sees the rows as they were before the update).
      settle: `WITH input AS (
                 SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::int[], $5::text[],
                   $6::timestamptz[], $7::timestamptz[])
                   AS u(id, status, attempts, last_status, last_error, next_attempt_at, delivered_at)),
               settled AS (
                 UPDATE ${table} AS t SET status = i.status, attempts = i.attempts,
                   last_status = i.last_status, last_error = i.last_error,
                   next_attempt_at = i.next_attempt_at, delivered_at = i.delivered_at,
                   updated_at = now()
                 FROM input AS i WHERE t.id = i.id
                 RETURNING t.endpoint, t.subject, t.seq, t.status)
               SELECT DISTINCT ON (n.endpoint, n.subject) n.id, n.endpoint
                 FROM ${table} AS n, settled AS s
                 WHERE n.endpoint = s.endpoint AND n.subject = s.subject AND n.seq > s.seq
                   AND n.status = 'pending' AND n.id <> ALL($1::text[])
                   AND NOT EXISTS (SELECT 1 FROM settled AS p WHERE p.endpoint = s.endpoint
                     AND p.subject = s.subject AND p.status = 'pending')
                 ORDER BY n.endpoint, n.subject, n.seq`,
      // Settled deliveries past the retention, a bounded number per sweep.
      prune: `DELETE FROM ${table} WHERE id IN (SELECT id FROM ${table} WHERE status <> 'pending'
               AND updated_at < now() - $1 * interval '1 millisecond' LIMIT 1000)`,
      overdueHeads: `SELECT DISTINCT ON (endpoint, subject) id, endpoint, next_attempt_at FROM ${table}
             WHERE status = 'pending' ORDER BY endpoint, subject, seq`,
      list: `SELECT ${COLUMNS} FROM ${table} WHERE ($1::text IS NULL OR status = $1)
             ORDER BY seq DESC LIMIT $2`,
      retry: `UPDATE ${table} SET status = 'pending', next_attempt_at = NULL, created_at = now(),
                updated_at = now() WHERE id = $1 AND status = 'failed' RETURNING ${COLUMNS}`,
      get: `SELECT ${COLUMNS} FROM ${table} WHERE id = $1`,
    };
  }

  private get jobExpireSeconds() {
    return this.options.jobExpireSeconds ?? Math.ceil(this.options.settings.timeoutMs / 1000) + 30;
  }

  get enabled() {
    return this.options.settings.endpoints.length > 0;
  }

  /** One statement: the deliveries and their jobs (in `transaction` when given). */
  async publish(events: readonly WebhookEvent[], transaction?: TransactionClient): Promise<void> {
    const params = this.enabled ? this.inStatement.params(events) : undefined;
    if (!params) return;
    await (transaction ?? this.options.pool).query(
      `WITH ${this.inStatement.ctes(undefined, 1)} SELECT 1`,
      params,
    );
  }

  /**
   * Publishing inside another statement: one row per event and subscribed endpoint, and a pg-boss
   * job naming each, inserted into pg-boss's job table the way its own `insert` does (the
   * `pg-boss-job-insert-in-statement` patch) with the queue's policy; a queue not created yet
   * gets no job, as with `insert`, and the sweep wakes its deliveries.
   */
  readonly inStatement: InStatement = {
    ctes: (guard, first) => {
      const p = (i: number) => `$${first + i}`;
      const queues = this.options.queueSchema;
      return `webhook_rows AS (
          INSERT INTO ${this.table} (id, endpoint, type, subject, body)
          SELECT * FROM unnest(${p(0)}::text[], ${p(1)}::text[], ${p(2)}::text[], ${p(3)}::text[],
            ${p(4)}::text[])${guard ? ` WHERE EXISTS (SELECT 1 FROM ${guard})` : ''}
          RETURNING id, endpoint),
        webhook_jobs AS (
          INSERT INTO ${queues}.job (name, data, expire_in, retry_limit, retry_delay, policy)
          SELECT q.name, jsonb_build_object('id', r.id), ${p(5)}::int * interval '1 second',
            ${JOB_RETRY_LIMIT}, ${JOB_RETRY_DELAY}, q.policy
          FROM webhook_rows AS r JOIN ${queues}.queue AS q ON q.name = '${QUEUE_PREFIX}' || r.endpoint)`;
    },
    params: (events) => {
      const rows: Array<{ id: string; endpoint: string; event: WebhookEvent; body: string }> = [];
      for (const event of events) {
        const body = envelopeOf(event, event.timestamp ?? new Date());
        for (const endpoint of this.options.settings.endpoints) {
          if (subscribes(endpoint, event.type)) {
            rows.push({ id: `msg_${randomUUID()}`, endpoint: endpoint.id, event, body });
          }
        }
      }
      if (rows.length === 0) return undefined;
      return [
        rows.map((row) => row.id),
        rows.map((row) => row.endpoint),
        rows.map((row) => row.event.type),
        rows.map((row) => row.event.subject),
        rows.map((row) => row.body),
        this.jobExpireSeconds,
      ];
    },
  };

  async list(filter: { status?: Delivery['status']; limit: number }): Promise<Delivery[]> {
    const { rows } = await this.options.pool.query<DeliveryRow>(this.sql.list!, [
      filter.status ?? null,
      filter.limit,
    ]);
    return rows.map(view);
  }

  async retry(id: string) {
    const { rows } = await this.options.pool.query<DeliveryRow>(this.sql.retry!, [id]);
    const row = rows[0];
    if (!row) {
      const found = await this.options.pool.query<DeliveryRow>(this.sql.get!, [id]);
      return found.rows[0] && { retried: false, delivery: view(found.rows[0]) };
    }
    const endpoint = this.byId.get(row.endpoint);
    if (endpoint) await this.wake([{ endpoint, id: row.id }]);
    return { retried: true, delivery: view(row) };
  }

  /**
   * Sets the queues up and starts the workers and the sweep. The table is the service's to
   * create (webhookTablesMigration, in its own set-up under its set-up lock).
   */
  async start(): Promise<void> {
    // A start-up that retries (the database was away) may call this again.
    if (!this.enabled || this.loops.length > 0) return;
    await this.boss.start();
    for (const endpoint of this.options.settings.endpoints) {
      await this.boss.createQueue(queueOf(endpoint));
      this.loops.push(this.work(endpoint));
    }
    this.loops.push(this.sweep());
  }

  async close(): Promise<void> {
    this.stopping.abort();
    await Promise.all(this.loops);
    if (this.enabled) await this.boss.stop({ graceful: false, close: true }).catch(() => undefined);
  }

  /** Sends one job per delivery, in one statement (in `transaction` when given). */
  private async wake(
    deliveries: ReadonlyArray<{ endpoint: Endpoint; id: string; at?: Date | null }>,
    transaction?: TransactionClient,
  ) {
    if (deliveries.length === 0) return;
    const expireInSeconds = this.jobExpireSeconds;
    await this.boss.insert(
      deliveries.map(({ endpoint, id, at }) => ({
        name: queueOf(endpoint),
        data: { id },
        startAfter: at ?? undefined,
        expireInSeconds,
        retryLimit: JOB_RETRY_LIMIT,
        retryDelay: JOB_RETRY_DELAY,
      })),
      transaction ? { db: inTransaction(transaction) } : {},
    );
  }

  /**
   * One endpoint's worker: fetches up to BATCH_MAX jobs in one query and attempts them as one
   * batch (deliverBatch), with up to WEBHOOK_CONCURRENCY batches at once; looks again GATHER_MS
   * after a fetch that found jobs, or after `pollMs` (or a batch's end) when there was nothing.
   * Under load a batch holds what gathered since the last fetch, so its statements are shared by
   * many deliveries. The attempts of all batches share the endpoint's WEBHOOK_CONCURRENCY slots.
   * Every error is caught and logged; the jobs of a batch that throws are failed, and pg-boss runs
   * them again.
   */
  private async work(endpoint: Endpoint) {
    const { logger, settings } = this.options;
    const queue = queueOf(endpoint);
    const signal = this.stopping.signal;
    const running = new Set<Promise<void>>();
    const run = async (jobs: PgBoss.Job<{ id: string }>[]) => {
      try {
        await this.deliverBatch(endpoint, jobs);
      } catch (error) {
        logger.warn(
          { err: error, webhook_ids: jobs.map((job) => job.data.id) },
          'webhook jobs failed; pg-boss retries them',
        );
        await this.boss
          .fail(
            queue,
            jobs.map((job) => job.id),
          )
          .catch(() => undefined);
      }
    };
    while (!signal.aborted) {
      if (running.size >= settings.concurrency) {
        await Promise.race(running);
        continue;
      }
      let jobs: PgBoss.Job<{ id: string }>[] = [];
      try {
        jobs = await this.boss.fetch<{ id: string }>(queue, { batchSize: BATCH_MAX });
      } catch (error) {
        logger.warn({ err: error }, 'webhook queue fetch failed');
      }
      if (jobs.length > 0) {
        const task: Promise<void> = run(jobs).finally(() => running.delete(task));
        running.add(task);
      }
      // Fetched: wait a moment, so that the next batch gathers what arrives meanwhile. Nothing:
      // look again after pollMs, or when a batch ends (it may have woken the next of a line).
      if (jobs.length > 0) {
        await sleep(GATHER_MS, undefined, { signal }).catch(() => undefined);
      } else {
        const idle = sleep(this.options.pollMs ?? 250, undefined, { signal }).catch(
          () => undefined,
        );
        await Promise.race([idle, ...running]);
      }
    }
    await Promise.all(running);
  }

  /**
   * Attempts the deliveries these jobs name that are due, unlocked and first in their lines, or
   * follow such a one in this batch (locked through their attempts: SKIP LOCKED keeps two instances
   * off one row), lines side by side and each line in order; settles them, schedules their retries and completes the jobs in one transaction; then wakes
   * what follows each settled line.
   */
  private async deliverBatch(endpoint: Endpoint, jobs: PgBoss.Job<{ id: string }>[]) {
    const client = await this.options.pool.connect();
    let next: Array<{ id: string; endpoint: string }> = [];
    try {
      await client.query('BEGIN');
      const taken = await client.query<DeliveryRow>(this.sql.take!, [
        jobs.map((job) => job.data.id),
      ]);
      // Lines side by side (sharing the endpoint's slots), each line's rows in order; a line stops
      // at a row that is to be retried: the rest of it waits, pending, behind that row.
      const lines = new Map<string, DeliveryRow[]>();
      for (const row of taken.rows)
        lines.set(row.subject, [...(lines.get(row.subject) ?? []), row]);
      const attempted = (
        await Promise.all(
          [...lines.values()].map(async (line) => {
            const done = [];
            for (const row of line) {
              const after = await this.slots.run(endpoint.id, () =>
                attemptDelivery(this.options, endpoint, row),
              );
              done.push({ id: row.id, ...after });
              if (after.status === 'pending') break;
            }
            return done;
          }),
        )
      ).flat();
      if (attempted.length > 0) {
        const following = await client.query<{ id: string; endpoint: string }>(this.sql.settle!, [
          attempted.map((a) => a.id),
          attempted.map((a) => a.status),
          attempted.map((a) => a.attempts),
          attempted.map((a) => a.last_status),
          attempted.map((a) => a.last_error),
          attempted.map((a) => a.next_attempt_at),
          attempted.map((a) => a.delivered_at),
        ]);
        next = following.rows;
        await this.wake(
          attempted
            .filter((a) => a.next_attempt_at)
            .map((a) => ({ endpoint, id: a.id, at: a.next_attempt_at })),
          client,
        );
      }
      await this.boss.complete(
        queueOf(endpoint),
        jobs.map((job) => job.id),
        { db: inTransaction(client) },
      );
      await client.query('COMMIT');
      client.release();
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      client.release(true);
      throw error;
    }
    // Woken after the commit, so that their jobs see these settled. A next delivery committed
    // between the settle and the commit is not in `next`, and its own job may have seen its line's
    // head still pending: the sweep wakes it (the only case that waits for the sweep).
    await this.wake(
      next.flatMap((row) => {
        const following = this.byId.get(row.endpoint);
        return following ? [{ endpoint: following, id: row.id }] : [];
      }),
    );
  }

  private async sweep() {
    const signal = this.stopping.signal;
    const every = this.options.sweepMs ?? 30_000;
    while (!signal.aborted) {
      await sleep(every, undefined, { signal }).catch(() => undefined);
      if (signal.aborted) return;
      try {
        const { rows } = await this.options.pool.query<{
          id: string;
          endpoint: string;
          next_attempt_at: Date | null;
        }>(this.sql.overdueHeads!);
        const late = Date.now() - every;
        await this.wake(
          rows.flatMap((row) => {
            const endpoint = this.byId.get(row.endpoint);
            return endpoint && (row.next_attempt_at?.getTime() ?? 0) <= late
              ? [{ endpoint, id: row.id }]
              : [];
          }),
        );
        await this.options.pool.query(this.sql.prune!, [this.options.settings.retentionMs]);
      } catch (error) {
        this.options.logger.warn({ err: error }, 'webhook sweep failed');
      }
    }
  }
}
