import { isDatabaseUnreachable, withTransaction, type DatabaseHealth } from '@repo/pg-kit';
import PgBoss from 'pg-boss';
import type pg from 'pg';
import type { Logger } from 'pino';
import { deliveryView, type Delivery, type OutgoingMessage } from '../delivery/delivery.js';
import { deliveryEvent, type DeliveryChange } from '../delivery/delivery-events.js';
import { applyOutcome, requeued } from '../delivery/delivery-outcome.js';
import type {
  DeliveryHandler,
  DeliveryOutcome,
  DeliveryStore,
} from '../delivery/delivery-store.js';
import type { HistoryEvent } from '../threads/thread-history.js';
import { ThreadMovedOn } from '../threads/thread-errors.js';
import { PostgresThreadHistory } from './postgres-thread-history.js';
import type { Thread } from '../threads/thread.js';
import { startQueueWorkers, type QueueWorkers } from './queue-workers.js';
import { withQueueSetupLock } from './setup-database.js';
import { queueSchema, table } from './tables.js';

const QUEUE = 'email-delivery';
/** How often an idle worker looks at the queue again. */
const POLL_MS = 500;

export interface QueueSettings {
  connectionString: string;
  schema: string;
  /** How long a job may stay taken before pg-boss gives it to another worker (the holder died). */
  leaseSeconds: number;
  /** Jobs taken at once by this instance. */
  concurrency: number;
  logger: Logger;
  /** Where the queue's connection failures count as one outage (logged once), not one line each. */
  health?: DatabaseHealth;
}

interface DeliveryRow {
  thread_id: string;
  message_id: string;
  to_address: string | null;
  from_address: string | null;
  subject: string;
  in_reply_to: string | null;
  refs: string[];
  body: string;
  status: Delivery['status'];
  attempts: number;
  last_error: string | null;
  next_attempt_at: Date;
  delivered_at: Date | null;
  server_reply: string | null;
}

function fromRow(row: DeliveryRow): Delivery {
  return {
    thread_id: row.thread_id,
    message_id: row.message_id,
    to: row.to_address,
    from: row.from_address,
    subject: row.subject,
    in_reply_to: row.in_reply_to,
    references: row.refs,
    body: row.body,
    status: row.status,
    attempts: row.attempts,
    last_error: row.last_error,
    next_attempt_at: row.next_attempt_at.toISOString(),
    delivered_at: row.delivered_at?.toISOString() ?? null,
    server_reply: row.server_reply,
  };
}

const isUniqueViolation = (error: unknown) =>
  typeof error === 'object' && error !== null && 'code' in error && error.code === '23505';

/** pg-boss's executor over one client, so a job is inserted inside that client's transaction. */
const inTransaction = (client: pg.PoolClient): PgBoss.Db => ({
  executeSql: (text, values) => client.query(text, values),
});

/**
 * Delivery records in `email_deliveries` (one per sent thread) and their jobs in pg-boss (its own
 * schema, `<schema>_pgboss`). A job only says "look at this thread's message"; the record says what
 * is due. The record's row lock (taken with SKIP LOCKED, held through the SMTP exchange) is what
 * lets one worker at a time hold a message, whichever job woke it; a worker that dies loses its
 * session and with it the lock, and pg-boss hands its job out again once the lease expires.
 */
export class PostgresDeliveries implements DeliveryStore {
  private readonly boss: PgBoss;
  private readonly sql: Record<string, string>;
  /** Each change to a record appends its history event in the record's transaction. */
  private readonly history: PostgresThreadHistory;
  private started = false;
  private workers: QueueWorkers | undefined;

  constructor(
    private readonly pool: pg.Pool,
    private readonly settings: QueueSettings,
  ) {
    const deliveries = table(settings.schema, 'email_deliveries');
    const threads = table(settings.schema, 'email_threads');
    this.history = new PostgresThreadHistory(pool, settings.schema);
    this.boss = new PgBoss({
      connectionString: settings.connectionString,
      schema: queueSchema(settings.schema),
      max: 2 + settings.concurrency,
      application_name: 'email-review-queue',
      // Expiry of a dead worker's job is checked on this beat.
      maintenanceIntervalSeconds: Math.max(1, Math.min(60, Math.floor(settings.leaseSeconds / 2))),
      schedule: false,
    });
    this.boss.on('error', (error: unknown) => this.onQueueError(error));
    const columns = `thread_id, message_id, to_address, from_address, subject, in_reply_to, refs, body,
      status, attempts, last_error, next_attempt_at, delivered_at, server_reply`;
    this.sql = {
      // Compare-and-set: only the revision the approval read, still awaiting review.
      approveThread: `UPDATE ${threads} SET status = 'sent', view = $2, delivery_status = 'queued'
                      WHERE thread_id = $1 AND status = 'awaiting_review'
                        AND (view->>'revision')::int = $3`,
      insert: `INSERT INTO ${deliveries} (thread_id, message_id, to_address, from_address, subject,
                 in_reply_to, refs, body, status, attempts, next_attempt_at)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'queued', 0, now())
               RETURNING ${columns}`,
      get: `SELECT ${columns} FROM ${deliveries} WHERE thread_id = $1`,
      take: `SELECT ${columns} FROM ${deliveries} WHERE thread_id = $1
             AND status = 'queued' AND next_attempt_at <= now() FOR UPDATE SKIP LOCKED`,
      takeFailed: `SELECT ${columns} FROM ${deliveries} WHERE thread_id = $1 AND status = 'failed' FOR UPDATE`,
      update: `UPDATE ${deliveries} SET status = $2, attempts = $3, last_error = $4,
                 next_attempt_at = $5, delivered_at = $6, server_reply = $7, updated_at = now()
               WHERE thread_id = $1`,
      updateView: `UPDATE ${threads} SET view = jsonb_set(view, '{delivery}', $2), delivery_status = $3
                   WHERE thread_id = $1`,
      stale: `SELECT thread_id FROM ${deliveries}
              WHERE status = 'queued' AND next_attempt_at < now() - $1 * interval '1 millisecond'
              ORDER BY next_attempt_at LIMIT 500`,
    };
  }

  async commitApproval(
    view: Thread,
    message: OutgoingMessage,
    events: readonly HistoryEvent[],
    client?: pg.PoolClient,
  ): Promise<Delivery> {
    try {
      return await (client
        ? this.approve(client, view, message, events)
        : this.transaction((own) => this.approve(own, view, message, events)));
    } catch (error) {
      // A concurrent approval inserted the record first (it waited for that one's commit).
      if (isUniqueViolation(error)) throw new ThreadMovedOn(view.thread_id);
      throw error;
    }
  }

  private async approve(
    client: pg.PoolClient,
    view: Thread,
    message: OutgoingMessage,
    events: readonly HistoryEvent[],
  ) {
    {
      const inserted = await client.query<DeliveryRow>(this.sql.insert!, [
        message.thread_id,
        message.message_id,
        message.to,
        message.from,
        message.subject,
        message.in_reply_to,
        message.references,
        message.body,
      ]);
      const delivery = fromRow(inserted.rows[0]!);
      const approved = await client.query(this.sql.approveThread!, [
        view.thread_id,
        { ...view, delivery: deliveryView(delivery) },
        view.revision,
      ]);
      if (approved.rowCount !== 1) throw new ThreadMovedOn(view.thread_id);
      await this.history.appendIn(client, view.thread_id, [
        ...events,
        deliveryEvent(delivery, 'approved', view.sent_at ?? view.updated_at),
      ]);
      await this.enqueue(client, delivery);
      return delivery;
    }
  }

  async get(threadId: string) {
    const result = await this.pool.query<DeliveryRow>(this.sql.get!, [threadId]);
    return result.rows[0] && fromRow(result.rows[0]);
  }

  async attempt(threadId: string, attempt: (delivery: Delivery) => Promise<DeliveryOutcome>) {
    await this.transaction(async (client) => {
      const taken = await client.query<DeliveryRow>(this.sql.take!, [threadId]);
      if (!taken.rows[0]) return;
      const delivery = fromRow(taken.rows[0]);
      await this.record(client, applyOutcome(delivery, await attempt(delivery)), 'attempted');
    });
  }

  async redeliver(threadId: string, at: string) {
    return this.transaction(async (client) => {
      const failed = await client.query<DeliveryRow>(this.sql.takeFailed!, [threadId]);
      if (!failed.rows[0]) return undefined;
      return this.record(client, requeued(fromRow(failed.rows[0]), at), 'redelivered');
    });
  }

  async requeueStale(staleMs: number) {
    const stale = await this.pool.query<{ thread_id: string }>(this.sql.stale!, [staleMs]);
    for (const { thread_id } of stale.rows)
      await this.boss.send(QUEUE, { thread_id }, this.jobOptions());
    return stale.rows.length;
  }

  async start(handler: DeliveryHandler) {
    await withQueueSetupLock(this.pool, async () => {
      await this.boss.start();
      this.started = true;
      if (!(await this.boss.getQueue(QUEUE))) await this.boss.createQueue(QUEUE);
    });
    this.workers = startQueueWorkers({
      boss: this.boss,
      queue: QUEUE,
      concurrency: this.settings.concurrency,
      pollMs: POLL_MS,
      handler: (job: PgBoss.Job<{ thread_id: string }>) => handler(job.data.thread_id),
      onQueueError: (error) => this.onQueueError(error),
    });
  }

  async stop() {
    await this.workers?.stop();
    this.workers = undefined;
    if (this.started) await this.boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    this.started = false;
  }

  /** pg-boss polls on its own: an outage would log on every beat, so it counts as one outage. */
  private onQueueError(error: unknown) {
    if (this.settings.health && isDatabaseUnreachable(error)) this.settings.health.markDown(error);
    else this.settings.logger.warn({ err: error }, 'delivery queue error');
  }

  private async record(
    client: pg.PoolClient,
    delivery: Delivery,
    change: DeliveryChange,
  ): Promise<Delivery> {
    await client.query(this.sql.update!, [
      delivery.thread_id,
      delivery.status,
      delivery.attempts,
      delivery.last_error,
      delivery.next_attempt_at,
      delivery.delivered_at,
      delivery.server_reply,
    ]);
    await client.query(this.sql.updateView!, [
      delivery.thread_id,
      deliveryView(delivery),
      delivery.status,
    ]);
    await this.history.appendIn(client, delivery.thread_id, [deliveryEvent(delivery, change)]);
    if (delivery.status === 'queued') await this.enqueue(client, delivery);
    return delivery;
  }

  /** The job that will make the next attempt, inside the caller's transaction. */
  private async enqueue(client: pg.PoolClient, delivery: Delivery) {
    await this.boss.send(
      QUEUE,
      { thread_id: delivery.thread_id },
      {
        ...this.jobOptions(),
        startAfter: new Date(delivery.next_attempt_at),
        db: inTransaction(client),
      },
    );
  }

  /**
   * The retry policy is the record's (deliverMessage schedules each retry); pg-boss's own retries
   * only re-run a job whose worker died or whose database write failed.
   */
  private jobOptions(): PgBoss.SendOptions {
    return { retryLimit: 50, retryDelay: 1, expireInSeconds: this.settings.leaseSeconds };
  }

  private transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return withTransaction(this.pool, work);
  }
}
