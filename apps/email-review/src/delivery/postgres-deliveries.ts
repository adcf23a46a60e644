import { withTransaction, type DatabaseHealth } from '@repo/pg-kit';
import PgBoss from 'pg-boss';
import type pg from 'pg';
import type { Logger } from 'pino';
import {
  deliveryView,
  newDelivery,
  type Delivery,
  type OutgoingMessage,
} from './delivery.js';
import { deliveryEvent, type DeliveryChange } from './delivery-events.js';
import { applyOutcome, requeued } from './delivery-outcome.js';
import type { RetryPolicy } from './retry-policy.js';
import type {
  DeliveryHandler,
  DeliveryOutcome,
  DeliveryStore,
} from './delivery-store.js';
import type { HistoryEvent } from '../threads/thread-history.js';
import { ThreadMovedOn } from '../threads/thread-errors.js';
import {
  eventsParam,
  PostgresThreadHistory,
  writeRecordingEvents,
} from '../threads/postgres-thread-history.js';
import type { Thread } from '../threads/thread.js';
import {
  inTransaction,
  reportQueueError,
  startQueueWorkers,
  stopQueue,
  type QueueWorkers,
} from '../jobs/queue-workers.js';
import { withQueueSetupLock } from '../db/setup-database.js';
import type { ThreadWebhooks } from '../webhooks/thread-webhooks.js';
import { queueSchema, table } from '../db/tables.js';
import type { StatementPart } from '../persistence/statement-part.js';

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
  connectionString: string;
  schema: string;
  /** How long a job may stay taken before pg-boss gives it to another worker (the holder died). */
  leaseSeconds: number;
  /** Jobs taken at once by this instance. */
  concurrency: number;
  logger: Logger;
  /** Where the queue's connection failures count as one outage (logged once), not one line each. */
  health?: DatabaseHealth;
  /** The retries of a deferred attempt: pg-boss's retryLimit, retryDelay and retryBackoff. */
  retry: RetryPolicy;
  /** Approvals and delivery outcomes publish the webhook events they report in their transaction. */
  webhooks?: ThreadWebhooks;
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

const isUniqueViolation = (error: unknown) =>
  typeof error === 'object' && error !== null && 'code' in error && error.code === '23505';

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
  private readonly boss: PgBoss;
  private readonly sql: Record<string, string>;
  private readonly approveWith: (published: number, checkpoint: StatementPart) => string;
  /** Each change to a record appends its history event in the record's transaction. */
  private readonly history: PostgresThreadHistory;
  private started = false;
  private workers: QueueWorkers | undefined;
  private givenUpWorkers: QueueWorkers | undefined;

  constructor(
    private readonly pool: pg.Pool,
    private readonly settings: QueueSettings,
  ) {
    const deliveries = table(settings.schema, 'email_deliveries');
    const threads = table(settings.schema, 'email_threads');
    this.history = new PostgresThreadHistory(pool, settings.schema, settings.webhooks);
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
      status, attempts, last_error, delivered_at, server_reply`;
    // An approval is one statement: the thread by compare-and-set (only the revision the approval
    // read, still awaiting review), then, for the row it wrote, the delivery record, the history
    // events ($5) and the webhook events they report (parameters from $13).
    const approve = (publishing: string, extra = '') =>
      writeRecordingEvents(
        settings.schema,
        `UPDATE ${threads} SET status = 'sent', view = $2, delivery_status = $4
         WHERE thread_id = $1 AND status = 'awaiting_review' AND (view->>'revision')::int = $3
         RETURNING thread_id`,
        '$5',
        [
          `delivery AS (INSERT INTO ${deliveries} (thread_id, message_id, to_address, from_address,
             subject, in_reply_to, refs, body, status, attempts)
           SELECT thread_id, $6, $7, $8, $9, $10, $11, $12, $4, 0 FROM written)`,
          publishing,
          extra,
        ]
          .filter(Boolean)
          .join(', '),
      );
    // With a decision's checkpoint writes (after the webhook parameters, if any).
    this.approveWith = (published, checkpoint) =>
      approve(
        published > 0 ? (settings.webhooks?.ctes('written', 13) ?? '') : '',
        checkpoint.ctes('written', 13 + published),
      );
    this.sql = {
      approve: approve(''),
      approvePublishing: approve(settings.webhooks?.ctes('written', 13) ?? ''),
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

  async commitApproval(
    view: Thread,
    message: OutgoingMessage,
    events: readonly HistoryEvent[],
    client?: pg.PoolClient,
    checkpoint?: StatementPart,
  ): Promise<Delivery> {
    const delivery = newDelivery(message);
    try {
      // A queued delivery's job is a second statement: both in one transaction.
      if (client || delivery.status !== 'queued')
        await this.approve(client ?? this.pool, view, delivery, events, checkpoint);
      else await this.transaction((own) => this.approve(own, view, delivery, events, checkpoint));
      return delivery;
    } catch (error) {
      // A concurrent approval inserted the record first (it waited for that one's commit).
      if (isUniqueViolation(error)) throw new ThreadMovedOn(view.thread_id);
      throw error;
    }
  }

  private async approve(
    db: pg.PoolClient | pg.Pool,
    view: Thread,
    delivery: Delivery,
    events: readonly HistoryEvent[],
    checkpoint?: StatementPart,
  ) {
    const approvedView = { ...view, delivery: deliveryView(delivery) };
    const history = [
      ...events,
      deliveryEvent(delivery, 'approved', view.sent_at ?? view.updated_at),
    ];
    const published = this.settings.webhooks?.params(approvedView, history) ?? [];
    const approved = await db.query(
      checkpoint
        ? this.approveWith(published.length, checkpoint)
        : published.length > 0
          ? this.sql.approvePublishing!
          : this.sql.approve!,
      [
        view.thread_id,
        approvedView,
        view.revision,
        delivery.status,
        eventsParam(history),
        delivery.message_id,
        delivery.to,
        delivery.from,
        delivery.subject,
        delivery.in_reply_to,
        delivery.references,
        delivery.body,
        ...published,
        ...(checkpoint?.params ?? []),
      ],
    );
    if (approved.rowCount !== 1) throw new ThreadMovedOn(view.thread_id);
    // Queued: on a transaction's client (commitApproval).
    if (delivery.status === 'queued') await this.enqueue(db as pg.PoolClient, delivery);
  }

  async get(threadId: string) {
    const result = await this.pool.query<DeliveryRow>(this.sql.get!, [threadId]);
    return result.rows[0] && fromRow(result.rows[0]);
  }

  async attempt(threadId: string, attempt: (delivery: Delivery) => Promise<DeliveryOutcome>) {
    return this.transaction(async (client) => {
      const taken = await client.query<DeliveryRow>(this.sql.take!, [threadId]);
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
      const taken = await client.query<DeliveryRow>(this.sql.take!, [threadId]);
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
      const unsent = await client.query<DeliveryRow>(this.sql.takeUnsent!, [threadId]);
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
    await withQueueSetupLock(this.pool, async () => {
      await this.boss.start();
      this.started = true;
      // The dead letter queue first: a job names it (a deferred foreign key to the queue table).
      for (const queue of [GIVEN_UP_QUEUE, QUEUE])
        if (!(await this.boss.getQueue(queue))) await this.boss.createQueue(queue);
    });
    this.givenUpWorkers = startQueueWorkers<{ thread_id: string }>({
      boss: this.boss,
      queue: GIVEN_UP_QUEUE,
      concurrency: 1,
      pollMs: GIVEN_UP_POLL_MS,
      handler: (job) => this.giveUp(job.data.thread_id),
      onQueueError: (error) => this.onQueueError(error),
    });
    this.workers = startQueueWorkers({
      boss: this.boss,
      queue: QUEUE,
      concurrency: this.settings.concurrency,
      pollMs: POLL_MS,
      handler: (job: PgBoss.JobWithMetadata<{ thread_id: string }>) =>
        handler(job.data.thread_id, job.retryCount >= job.retryLimit),
      onQueueError: (error) => this.onQueueError(error),
    });
  }

  async stop() {
    await this.givenUpWorkers?.stop();
    this.givenUpWorkers = undefined;
    await stopQueue(this.boss, this.workers, this.started);
    this.workers = undefined;
    this.started = false;
  }

  private onQueueError(error: unknown) {
    reportQueueError(this.settings, 'delivery queue', error);
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
      delivery.delivered_at,
      delivery.last_response,
      delivery.to,
    ]);
    const updated = await client.query<{ view: Thread }>(this.sql.updateView!, [
      delivery.thread_id,
      deliveryView(delivery),
      delivery.status,
    ]);
    await this.history.appendIn(
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
    await this.boss.send(
      QUEUE,
      { thread_id: delivery.thread_id },
      {
        retryLimit: retry.maxAttempts - 1,
        retryDelay: retry.delaySeconds,
        retryBackoff: retry.backoff,
        expireInSeconds: leaseSeconds,
        deadLetter: GIVEN_UP_QUEUE,
        db: inTransaction(client),
      },
    );
  }

  private transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return withTransaction(this.pool, work);
  }
}
