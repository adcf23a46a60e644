import { withTransaction } from '@repo/pg-kit';
import type PgBoss from 'pg-boss';
import type pg from 'pg';
import type { Logger } from 'pino';
import {
  deliveryEvent,
  deliveryView,
  newDelivery,
  type Delivery,
  type DeliveryChange,
} from './delivery.js';
import { applyOutcome, requeued } from './delivery-outcome.js';
import type { RetryPolicy } from './retry-policy.js';
import type {
  Approval,
  DeliveryHandler,
  DeliveryOutcome,
  DeliveryStore,
} from './delivery-store.js';
import type { Transaction } from '../persistence/transaction.js';
import { ThreadMovedOn } from '../threads/thread-errors.js';
import type { PostgresThreadHistory } from '../threads/postgres-thread-store.js';
import type { Thread } from '../threads/thread.js';
import type { JobRunner } from '../jobs/job-runner.js';
import type { QueueWorkers } from '../jobs/queue-workers.js';
import { table } from '../db/tables.js';

const QUEUE = 'email-delivery';
/**
 * pg-boss's dead letter queue of QUEUE: a copy of each delivery job that failed for good. A job
 * whose handler records its outcome never ends there queued; one whose last attempt died (its
 * instance killed, its lease run out, its outcome not written) left its record `queued` with no job.
 */
const GIVEN_UP_QUEUE = 'email-delivery-given-up';
/** How often an idle worker looks at the queue again. */
const POLL_MS = 500;
/** Given-up jobs are rare: their worker looks less often. */
const GIVEN_UP_POLL_MS = 5_000;
const DIED_MID_ATTEMPT =
  'the last attempt did not finish (its instance stopped, or its outcome could not be recorded)';

export interface QueueSettings {
  schema: string;
  /** The process's job runner: the delivery jobs and their dead letters are its queues. */
  jobs: JobRunner;
  /** Appends each change's history event (and publishes its webhook events) in its transaction. */
  history: PostgresThreadHistory;
  /** How long a job may stay taken before pg-boss gives it to another worker (the holder died). */
  leaseSeconds: number;
  /** Jobs taken at once by this instance. */
  concurrency: number;
  logger: Logger;
  /** The retries of a deferred attempt: pg-boss's retryLimit, retryDelay and retryBackoff. */
  retry: RetryPolicy;
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
    delivered_at: row.delivered_at?.toISOString() ?? null,
    last_response: row.server_reply,
  };
}

/**
 * Delivery records in `email_deliveries` (one per sent thread) and their jobs in pg-boss (its own
 * schema, `<schema>_pgboss`). A job only says "look at this thread's message"; the record says where
 * its delivery stands. pg-boss schedules the retries (the job's retryLimit, retryDelay,
 * retryBackoff) and hands a dead worker's job out again (expireInSeconds). The record's row lock
 * (held through the SMTP exchange) lets one worker at a time hold a message, whichever job woke it
 * (a job handed out again while its first worker still hangs waits, then finds it settled); a
 * worker that dies loses its session and with it the lock.
 */
export class PostgresDeliveries implements DeliveryStore {
  private readonly sql: Record<
    'approve' | 'insert' | 'get' | 'take' | 'takeUnsent' | 'update' | 'updateView',
    string
  >;
  private workers: QueueWorkers[] = [];

  constructor(
    private readonly pool: pg.Pool,
    private readonly settings: QueueSettings,
  ) {
    const deliveries = table(settings.schema, 'email_deliveries');
    const threads = table(settings.schema, 'email_threads');
    // The dead letter queue first: a job names it.
    void settings.jobs.register(GIVEN_UP_QUEUE);
    void settings.jobs.register(QUEUE);
    const columns = `thread_id, message_id, to_address, from_address, subject, in_reply_to, refs, body,
      status, attempts, last_error, delivered_at, server_reply`;
    this.sql = {
      // Compare-and-set: only the revision the approval read, still awaiting review.
      approve: `UPDATE ${threads} SET status = 'sent', view = $2, delivery_status = $4
                WHERE thread_id = $1 AND status = 'awaiting_review' AND (view->>'revision')::int = $3`,
      insert: `INSERT INTO ${deliveries} (thread_id, message_id, to_address, from_address, subject,
                 in_reply_to, refs, body, status, attempts)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 0)`,
      get: `SELECT ${columns} FROM ${deliveries} WHERE thread_id = $1`,
      // Waits for the row (not SKIP LOCKED): the job is the message's only one, and a job that skipped
      // a row another transaction held for a moment would end with the message unsent.
      take: `SELECT ${columns} FROM ${deliveries} WHERE thread_id = $1
             AND status = 'queued' FOR UPDATE`,
      takeUnsent: `SELECT ${columns} FROM ${deliveries} WHERE thread_id = $1
                   AND status IN ('failed', 'no_recipient') FOR UPDATE`,
      update: `UPDATE ${deliveries} SET status = $2, attempts = $3, last_error = $4,
                 delivered_at = $5, server_reply = $6, to_address = $7, updated_at = now()
               WHERE thread_id = $1`,
      updateView: `UPDATE ${threads} SET view = jsonb_set(view, '{delivery}', $2), delivery_status = $3
                   WHERE thread_id = $1 RETURNING view`,
    };
  }

  async commitApproval(tx: Transaction, { view, message, events }: Approval): Promise<Delivery> {
    const client = tx.client!;
    const delivery = newDelivery(message);
    const approved = { ...view, delivery: deliveryView(delivery) };
    const cas = await client.query(this.sql.approve, [
      view.thread_id,
      approved,
      view.revision,
      delivery.status,
    ]);
    if (cas.rowCount !== 1) throw new ThreadMovedOn(view.thread_id);
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
    const queued = deliveryEvent(delivery, 'approved', view.sent_at ?? view.updated_at);
    await this.settings.history.appendIn(client, view.thread_id, [...events, queued], approved);
    if (delivery.status === 'queued') await this.enqueue(client, delivery);
    return delivery;
  }

  async get(threadId: string) {
    const result = await this.pool.query<DeliveryRow>(this.sql.get, [threadId]);
    return result.rows[0] && fromRow(result.rows[0]);
  }

  async attempt(threadId: string, attempt: (delivery: Delivery) => Promise<DeliveryOutcome>) {
    return this.transaction(async (client) => {
      const taken = await client.query<DeliveryRow>(this.sql.take, [threadId]);
      if (!taken.rows[0]) return undefined;
      const delivery = fromRow(taken.rows[0]);
      const outcome = await attempt(delivery);
      await this.record(client, applyOutcome(delivery, outcome), 'attempted');
      return outcome;
    });
  }

  /**
   * A delivery whose job failed for good while its record was still queued (its last attempt died):
   * recorded `failed`, so that it shows as such and `POST /threads/{id}/redeliver` can send it.
   * Anything else (delivered, failed, queued again by a redeliver that came first) is left alone.
   */
  private async giveUp(threadId: string) {
    await this.transaction(async (client) => {
      const taken = await client.query<DeliveryRow>(this.sql.take, [threadId]);
      if (!taken.rows[0]) return;
      const outcome = {
        status: 'failed' as const,
        last_error: DIED_MID_ATTEMPT,
        last_response: null,
      };
      await this.record(client, applyOutcome(fromRow(taken.rows[0]), outcome), 'attempted');
      this.settings.logger.warn(
        { thread_id: threadId, reason: DIED_MID_ATTEMPT },
        'email delivery failed',
      );
    });
  }

  async redeliver(threadId: string, to: string | undefined) {
    return this.transaction(async (client) => {
      const unsent = await client.query<DeliveryRow>(this.sql.takeUnsent, [threadId]);
      if (!unsent.rows[0]) return undefined;
      const delivery = await this.record(
        client,
        requeued(fromRow(unsent.rows[0]), to),
        'redelivered',
      );
      await this.enqueue(client, delivery);
      return delivery;
    });
  }

  async start(handler: DeliveryHandler) {
    const { jobs, concurrency } = this.settings;
    this.workers = [
      jobs.work<{ thread_id: string }>(
        GIVEN_UP_QUEUE,
        { concurrency: 1, pollMs: GIVEN_UP_POLL_MS },
        (job) => this.giveUp(job.data.thread_id),
      ),
      jobs.work(
        QUEUE,
        { concurrency, pollMs: POLL_MS },
        (job: PgBoss.JobWithMetadata<{ thread_id: string }>) =>
          handler(job.data.thread_id, job.retryCount >= job.retryLimit),
      ),
    ];
  }

  async stop() {
    await Promise.all(this.workers.map((workers) => workers.stop()));
    this.workers = [];
  }

  private async record(
    client: pg.PoolClient,
    delivery: Delivery,
    change: DeliveryChange,
  ): Promise<Delivery> {
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
    await this.settings.history.appendIn(
      client,
      delivery.thread_id,
      [deliveryEvent(delivery, change)],
      updated.rows[0]?.view,
    );
    return delivery;
  }

  /**
   * The job that will make the attempts, inside the caller's transaction. Its retries are the
   * delivery's: a deferred attempt fails the job and pg-boss runs it again after its backoff; a
   * worker that died holding it loses it after `leaseSeconds` (expiry counts as a retry too).
   */
  private async enqueue(client: pg.PoolClient, delivery: Delivery) {
    const { retry, leaseSeconds } = this.settings;
    const options = {
      retryLimit: retry.maxAttempts - 1,
      retryDelay: retry.delaySeconds,
      retryBackoff: retry.backoff,
      expireInSeconds: leaseSeconds,
      deadLetter: GIVEN_UP_QUEUE,
    };
    const job = { thread_id: delivery.thread_id };
    await this.settings.jobs.send(QUEUE, job, options, client);
  }

  private transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return withTransaction(this.pool, work);
  }
}
