import { withTransaction } from '@repo/pg-kit';
import type pg from 'pg';
import type { Logger } from 'pino';
import { deliveryEvent, deliveryView, type Delivery } from './delivery.js';
import type { RetryPolicy } from './retry-policy.js';
import {
  applyOutcome,
  requeued,
  saveApproval,
  type Approval,
  type DeliveryHandler,
  type DeliveryOutcome,
  type DeliveryStore,
} from './delivery-store.js';
import type { Transaction } from '../persistence/transaction.js';
import type { PostgresThreadStore } from '../threads/postgres-thread-store.js';
import type { Thread } from '../threads/thread.js';
import type { JobQueue, JobRunner } from '../jobs/job-runner.js';
import { table } from '../db/tables.js';

const QUEUE = 'email-delivery';
/**
 * QUEUE's dead letters: a job that failed for good. Its record is still `queued` only when its last
 * attempt died (instance killed, lease run out, outcome not written).
 */
const GIVEN_UP_QUEUE = 'email-delivery-given-up';
/** How often an idle worker looks at the queue again (given-up jobs are rare: less often). */
const POLL_MS = 500;
const GIVEN_UP_POLL_MS = 5_000;
const DIED_MID_ATTEMPT =
  'the last attempt did not finish (its instance stopped, or its outcome could not be recorded)';

interface QueueSettings {
  schema: string;
  /** The process's job runner: the delivery jobs and their dead letters are its queues. */
  jobs: JobRunner;
  /** Writes an approval's view and history (see saveApproval), and each change's history event. */
  threads: PostgresThreadStore;
  /** How long a job may stay taken before pg-boss gives it to another worker (the holder died). */
  leaseSeconds: number;
  /** Jobs taken at once by this instance. */
  concurrency: number;
  logger: Logger;
  /** The retries of a deferred attempt: pg-boss's retryLimit, retryDelay and retryBackoff. */
  retry: RetryPolicy;
}

/** A row as `Delivery` names its fields (see COLUMNS), but for the timestamp. */
type DeliveryRow = Omit<Delivery, 'delivered_at'> & { delivered_at: Date | null };

const fromRow = (row: DeliveryRow): Delivery => ({
  ...row,
  delivered_at: row.delivered_at?.toISOString() ?? null,
});

const COLUMNS = `thread_id, message_id, to_address AS "to", from_address AS "from", subject,
  in_reply_to, refs AS "references", body, status, attempts, last_error, delivered_at,
  server_reply AS last_response`;

function deliverySql(schema: string) {
  const deliveries = table(schema, 'email_deliveries');
  const threads = table(schema, 'email_threads');
  return {
    insert: `INSERT INTO ${deliveries} (thread_id, message_id, to_address, from_address, subject,
               in_reply_to, refs, body, status, attempts)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 0)`,
    get: `SELECT ${COLUMNS} FROM ${deliveries} WHERE thread_id = $1`,
    // Waits for the row (not SKIP LOCKED): the job is the message's only one, and a job that skipped
    // a row another transaction held for a moment would end with the message unsent.
    take: `SELECT ${COLUMNS} FROM ${deliveries} WHERE thread_id = $1 AND status = ANY($2) FOR UPDATE`,
    update: `UPDATE ${deliveries} SET status = $2, attempts = $3, last_error = $4,
               delivered_at = $5, server_reply = $6, to_address = $7, updated_at = now()
             WHERE thread_id = $1`,
    updateView: `UPDATE ${threads} SET view = jsonb_set(view, '{delivery}', $2), delivery_status = $3
                 WHERE thread_id = $1 RETURNING view`,
  };
}

/**
 * Delivery records in `email_deliveries` and their jobs in pg-boss, which schedules the retries and
 * hands a dead worker's job out again. The record's row lock, held through the SMTP exchange, lets
 * one worker at a time hold a message, whichever job woke it; a dead worker's session frees it.
 */
export class PostgresDeliveries implements DeliveryStore {
  private readonly sql: ReturnType<typeof deliverySql>;
  private readonly givenUp: JobQueue<{ thread_id: string }>;
  private readonly queue: JobQueue<{ thread_id: string }>;

  constructor(
    private readonly pool: pg.Pool,
    private readonly settings: QueueSettings,
  ) {
    this.sql = deliverySql(settings.schema);
    // The dead letter queue first: a job names it.
    this.givenUp = settings.jobs.queue(GIVEN_UP_QUEUE);
    this.queue = settings.jobs.queue(QUEUE);
  }

  async commitApproval(tx: Transaction, approval: Approval): Promise<Delivery> {
    const client = tx.client!;
    const delivery = await saveApproval(this.settings.threads, tx, approval);
    await client.query(this.sql.insert, [
      delivery.thread_id,
      delivery.message_id,
      delivery.to,
      delivery.from,
      delivery.subject,
      delivery.in_reply_to,
      delivery.references,
      delivery.body,
      delivery.status,
    ]);
    if (delivery.status === 'queued') await this.enqueue(client, delivery);
    return delivery;
  }

  async get(threadId: string) {
    const result = await this.pool.query<DeliveryRow>(this.sql.get, [threadId]);
    return result.rows[0] && fromRow(result.rows[0]);
  }

  attempt(threadId: string, attempt: (delivery: Delivery) => Promise<DeliveryOutcome>) {
    return this.change(threadId, 'attempted', async (delivery) =>
      applyOutcome(delivery, await attempt(delivery)),
    );
  }

  /**
   * A dead letter whose record is still queued (its last attempt died) is recorded `failed`, so
   * that it shows as such and can be redelivered; any other record is left alone.
   */
  private async giveUp(threadId: string) {
    const failed = { status: 'failed' as const, last_error: DIED_MID_ATTEMPT, last_response: null };
    if (await this.attempt(threadId, async () => failed))
      this.settings.logger.warn(
        { thread_id: threadId, reason: DIED_MID_ATTEMPT },
        'email delivery failed',
      );
  }

  redeliver(threadId: string, to: string | undefined) {
    return this.change(threadId, 'redelivered', async (delivery, client) => {
      const queued = requeued(delivery, to);
      await this.enqueue(client, queued);
      return queued;
    });
  }

  async start(handler: DeliveryHandler) {
    await this.givenUp.work({ concurrency: 1, pollMs: GIVEN_UP_POLL_MS }, (job) =>
      this.giveUp(job.data.thread_id),
    );
    await this.queue.work(
      { concurrency: this.settings.concurrency, pollMs: POLL_MS },
      (job, lastTry) => handler(job.data.thread_id, lastTry),
    );
  }

  async stop() {
    await Promise.all([this.givenUp.stop(), this.queue.stop()]);
  }

  /**
   * Holds the thread's record while it is queued (an attempt) or unsent (a redelivery) and writes
   * what `next` makes of it, with the thread's view and history event, in one transaction.
   */
  private change(
    threadId: string,
    change: 'attempted' | 'redelivered',
    next: (delivery: Delivery, client: pg.PoolClient) => Promise<Delivery>,
  ) {
    const from = change === 'attempted' ? ['queued'] : ['failed', 'no_recipient'];
    return withTransaction(this.pool, async (client) => {
      const taken = await client.query<DeliveryRow>(this.sql.take, [threadId, from]);
      if (!taken.rows[0]) return undefined;
      const delivery = await next(fromRow(taken.rows[0]), client);
      await client.query(this.sql.update, [
        delivery.thread_id,
        delivery.status,
        delivery.attempts,
        delivery.last_error,
        delivery.delivered_at,
        delivery.last_response,
        delivery.to,
      ]);
      const updated = await client.query<{ view: Thread }>(this.sql.updateView, [
        delivery.thread_id,
        deliveryView(delivery),
        delivery.status,
      ]);
      const events = [deliveryEvent(delivery, change)];
      await this.settings.threads.appendHistory(client, threadId, events, updated.rows[0]?.view);
      return delivery;
    });
  }

  /**
   * The job that will make the attempts, in the caller's transaction. A deferred attempt fails the
   * job and pg-boss runs it again after its backoff; a dead worker's job expires after
   * `leaseSeconds` (which counts as a retry too).
   */
  private async enqueue(client: pg.PoolClient, delivery: Delivery) {
    const { retry, leaseSeconds } = this.settings;
    await this.queue.send(
      { thread_id: delivery.thread_id },
      {
        retryLimit: retry.maxAttempts - 1,
        retryDelay: retry.delaySeconds,
        retryBackoff: retry.backoff,
        expireInSeconds: leaseSeconds,
        deadLetter: GIVEN_UP_QUEUE,
      },
      client,
    );
  }
}
