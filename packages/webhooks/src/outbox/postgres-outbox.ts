import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import PgBoss from 'pg-boss';
import type pg from 'pg';
import { subscribes, type Endpoint } from '../config/webhook-settings.js';
import {
  attemptDelivery,
  type AttemptDeps,
  type PendingDelivery,
} from '../sending/attempt-delivery.js';
import {
  envelopeOf,
  type Delivery,
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

const queueOf = (endpoint: Endpoint) => `webhooks.${endpoint.id}`;

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
 * The outbox in PostgreSQL. `publish` inserts one row per subscribed endpoint and a pg-boss job
 * naming it, both in the caller's transaction: the event exists exactly when the change it reports
 * was committed. Each endpoint has its own queue, so its workers (WEBHOOK_CONCURRENCY per
 * instance) are the only ones a slow endpoint can hold up.
 *
 * Order per endpoint and subject is kept by the sender, not the queue: a job attempts its row only
 * if no earlier row of the same endpoint+subject is still pending; otherwise it does nothing, and
 * the earlier row, once settled, wakes the next one. The row is locked (SKIP LOCKED) through its
 * attempt, so two instances never send it at once; a worker that dies loses the lock with its
 * connection, and pg-boss hands its job out again after `jobExpireSeconds`. A sweep wakes any
 * head of line that is due and was missed (a crash between a commit and the next wake-up).
 */
export class PostgresOutbox implements Outbox {
  private readonly boss: PgBoss;
  private readonly sql: Record<string, string>;
  private readonly byId: Map<string, Endpoint>;
  private readonly stopping = new AbortController();
  private loops: Promise<void>[] = [];

  constructor(private readonly options: PostgresOutboxOptions) {
    const table = `"${options.schema}"."webhook_deliveries"`;
    this.byId = new Map(options.settings.endpoints.map((e) => [e.id, e]));
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
      insert: `INSERT INTO ${table} (id, endpoint, type, subject, body) VALUES ($1, $2, $3, $4, $5)`,
      // Due, not being attempted (SKIP LOCKED), and the head of its line: no earlier delivery of the
      // same endpoint and subject still pending.
      take: `SELECT ${COLUMNS} FROM ${table} AS d WHERE id = $1 AND status = 'pending'
             AND (next_attempt_at IS NULL OR next_attempt_at <= now())
             AND NOT EXISTS (SELECT 1 FROM ${table} AS e WHERE e.endpoint = d.endpoint
               AND e.subject = d.subject AND e.seq < d.seq AND e.status = 'pending')
             FOR UPDATE SKIP LOCKED`,
      // Answers the next pending delivery of the same line, to wake once this commits.
      settle: `WITH settled AS (
                 UPDATE ${table} SET status = $2, attempts = $3, last_status = $4, last_error = $5,
                   next_attempt_at = $6, delivered_at = $7, updated_at = now() WHERE id = $1
                 RETURNING endpoint, subject, seq)
               SELECT n.id FROM ${table} AS n, settled AS s WHERE n.endpoint = s.endpoint
                 AND n.subject = s.subject AND n.seq > s.seq AND n.status = 'pending'
               ORDER BY n.seq LIMIT 1`,
      overdueHeads: `SELECT DISTINCT ON (endpoint, subject) id, endpoint, next_attempt_at FROM ${table}
             WHERE status = 'pending' ORDER BY endpoint, subject, seq`,
      list: `SELECT ${COLUMNS} FROM ${table} WHERE ($1::text IS NULL OR status = $1)
             ORDER BY seq DESC LIMIT $2`,
      retry: `UPDATE ${table} SET status = 'pending', next_attempt_at = NULL, created_at = now(),
                updated_at = now() WHERE id = $1 AND status = 'failed' RETURNING ${COLUMNS}`,
      get: `SELECT ${COLUMNS} FROM ${table} WHERE id = $1`,
    };
  }

  get enabled() {
    return this.options.settings.endpoints.length > 0;
  }

  async publish(events: readonly WebhookEvent[], transaction?: TransactionClient): Promise<void> {
    if (!this.enabled || events.length === 0) return;
    if (!transaction) {
      const client = await this.options.pool.connect();
      try {
        await client.query('BEGIN');
        await this.publish(events, client);
        await client.query('COMMIT');
        client.release();
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        client.release(true);
        throw error;
      }
      return;
    }
    for (const event of events) {
      const body = envelopeOf(event, event.timestamp ?? new Date());
      for (const endpoint of this.options.settings.endpoints) {
        if (!subscribes(endpoint, event.type)) continue;
        const id = `msg_${randomUUID()}`;
        await transaction.query(this.sql.insert!, [
          id,
          endpoint.id,
          event.type,
          event.subject,
          body,
        ]);
        await this.wake(endpoint, id, transaction);
      }
    }
  }

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
    if (endpoint) await this.wake(endpoint, row.id);
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

  private wake(endpoint: Endpoint, id: string, transaction?: TransactionClient, at?: Date) {
    return this.boss.send(queueOf(endpoint), { id }, {
      ...(at ? { startAfter: at } : {}),
      expireInSeconds:
        this.options.jobExpireSeconds ?? Math.ceil(this.options.settings.timeoutMs / 1000) + 30,
      retryLimit: 5,
      retryDelay: 2,
      ...(transaction
        ? {
            db: {
              executeSql: (text: string, values: unknown[]) => transaction.query(text, values),
            },
          }
        : {}),
    } as PgBoss.SendOptions);
  }

  /**
   * One endpoint's worker: fetches as many jobs as it has free slots (WEBHOOK_CONCURRENCY) in one
   * query, runs them side by side, and looks again when a slot frees up, or after `pollMs` when
   * there was nothing. Every error is caught and logged; a job that throws is failed, and pg-boss
   * runs it again.
   */
  private async work(endpoint: Endpoint) {
    const { logger, settings } = this.options;
    const signal = this.stopping.signal;
    const running = new Set<Promise<void>>();
    const run = async (job: PgBoss.Job<{ id: string }>) => {
      try {
        await this.deliver(endpoint, job.data.id);
        await this.boss.complete(queueOf(endpoint), job.id);
      } catch (error) {
        logger.warn(
          { err: error, webhook_id: job.data.id },
          'webhook job failed; pg-boss retries it',
        );
        await this.boss.fail(queueOf(endpoint), job.id).catch(() => undefined);
      }
    };
    while (!signal.aborted) {
      if (running.size >= settings.concurrency) {
        await Promise.race(running);
        continue;
      }
      let jobs: PgBoss.Job<{ id: string }>[] = [];
      try {
        jobs = await this.boss.fetch<{ id: string }>(queueOf(endpoint), {
          batchSize: settings.concurrency - running.size,
        });
      } catch (error) {
        logger.warn({ err: error }, 'webhook queue fetch failed');
      }
      for (const job of jobs) {
        const task: Promise<void> = run(job).finally(() => running.delete(task));
        running.add(task);
      }
      if (jobs.length === 0) {
        const idle = sleep(this.options.pollMs ?? 250, undefined, { signal }).catch(
          () => undefined,
        );
        await (running.size > 0 ? Promise.race([idle, ...running]) : idle);
      }
    }
    await Promise.all(running);
  }

  /** Attempts the delivery if it is due, unlocked and the head of its line; then wakes what follows. */
  private async deliver(endpoint: Endpoint, id: string) {
    const client = await this.options.pool.connect();
    let next: string | undefined;
    try {
      await client.query('BEGIN');
      const row = (await client.query<DeliveryRow>(this.sql.take!, [id])).rows[0];
      if (row) {
        const after = await attemptDelivery(this.options, endpoint, row);
        const following = await client.query<{ id: string }>(this.sql.settle!, [
          id,
          after.status,
          after.attempts,
          after.last_status,
          after.last_error,
          after.next_attempt_at,
          after.delivered_at,
        ]);
        if (after.next_attempt_at) await this.wake(endpoint, id, client, after.next_attempt_at);
        else next = following.rows[0]?.id;
      }
      await client.query('COMMIT');
      client.release();
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      client.release(true);
      throw error;
    }
    // Woken after the commit, so that its job sees this one settled. A next delivery committed
    // between the settle and the commit is not in `next`, and its own job may have seen this one
    // still pending: the sweep wakes it (the only case that waits for the sweep).
    if (next) await this.wake(endpoint, next);
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
        for (const row of rows) {
          const endpoint = this.byId.get(row.endpoint);
          if (endpoint && (row.next_attempt_at?.getTime() ?? 0) <= late) {
            await this.wake(endpoint, row.id);
          }
        }
      } catch (error) {
        this.options.logger.warn({ err: error }, 'webhook sweep failed');
      }
    }
  }
}
