import type { DatabaseHealth } from '@repo/pg-kit';
import PgBoss from 'pg-boss';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { ModelJob, ModelJobs } from './model-jobs.js';
import { ThreadMovedOn } from '../threads/thread-errors.js';
import {
  inTransaction,
  reportQueueError,
  startQueueWorkers,
  stopQueue,
  type QueueWorkers,
} from './queue-workers.js';
import { withQueueSetupLock } from '../db/setup-database.js';
import { queueSchema } from '../db/tables.js';

const QUEUE = 'email-model-work';
/** How often an idle worker looks for a job whose instance died. */
const POLL_MS = 1_000;

export interface ModelJobSettings {
  connectionString: string;
  schema: string;
  /**
   * The longest a run may take (both model steps with their retry budget): the sending instance
   * runs the job at once, and it becomes anyone's only after this long (`startAfter`); a worker
   * that takes it holds it this long (`expireInSeconds`) before pg-boss hands it out again.
   */
  leaseSeconds: number;
  /** Jobs of dead instances taken at once by this one. */
  concurrency: number;
  /** Reruns of a job whose run could not commit (the database away, its worker dead). */
  retryLimit: number;
  logger: Logger;
  health?: DatabaseHealth;
}

/**
 * The deletion of model job `param` (a uuid) as PgBoss#deleteJob writes it (pg-boss 10.4.2,
 * plans.js `deleteJobs`), for a CTE of the statement that commits the job's result: the result and
 * the job's end are one statement, no transaction around them (patch pg-boss-job-sql-in-statement).
 */
export const finishModelJobSql = (schema: string, param: string) =>
  `DELETE FROM ${queueSchema(schema)}.job WHERE name = '${QUEUE}' AND id = ${param}::uuid`;

/**
 * The model work as pg-boss jobs (queue policy `stately`, singleton key = thread id: one waiting
 * and one running per thread at most). pg-boss 10 cannot fetch a job by id, so, with its public API
 * only, the sending instance claims its job by time: the job is sent with `startAfter` = the lease,
 * the sender runs it at once, and the transaction that commits the result (compare-and-set on the
 * thread) deletes the job. Only when the sender died (or its run outlived the lease) does the job
 * become due, and any instance's worker takes it, runs it (resuming from the checkpoint) and
 * commits the same way; pg-boss's expiry and retryLimit cover a worker that dies in turn. Two runs
 * of one job can only overlap past the lease, and then the compare-and-set lets one result in.
 */
export class PostgresModelJobs implements ModelJobs {
  private readonly boss: PgBoss;
  private started = false;
  private workers: QueueWorkers | undefined;

  constructor(
    /** Where the queue's set-up takes its advisory lock. */
    private readonly setupPool: pg.Pool,
    private readonly settings: ModelJobSettings,
  ) {
    this.boss = new PgBoss({
      connectionString: settings.connectionString,
      schema: queueSchema(settings.schema),
      max: 2 + settings.concurrency,
      application_name: 'email-review-model-work',
      maintenanceIntervalSeconds: Math.max(1, Math.min(60, Math.floor(settings.leaseSeconds / 2))),
      schedule: false,
    });
    this.boss.on('error', (error: unknown) => this.onQueueError(error));
  }

  async send(job: ModelJob, client?: pg.PoolClient): Promise<string> {
    const { leaseSeconds, retryLimit } = this.settings;
    const id = await this.boss.send(QUEUE, job, {
      singletonKey: job.thread_id,
      startAfter: leaseSeconds,
      expireInSeconds: leaseSeconds,
      retryLimit,
      retryDelay: 1,
      retryBackoff: true,
      ...(client ? { db: inTransaction(client) } : {}),
    });
    // The thread's previous job is still there: its change has not committed its result yet.
    if (!id) throw new ThreadMovedOn(job.thread_id);
    return id;
  }

  /**
   * `send` as a CTE (`model_job`, answering the job's id) of the statement that creates the thread,
   * one job per row of `source` (none when that wrote nothing, or when `data` is null): the columns
   * PgBoss#send writes with the options above (pg-boss 10.4.2, plans.js `insertJob`; the queue's
   * policy, dead letter and retention as it reads them). `data`: the job's, as jsonb. Patch
   * pg-boss-job-sql-in-statement.
   */
  sendSql(source: string, data: string): string {
    const { leaseSeconds, retryLimit } = this.settings;
    const queue = queueSchema(this.settings.schema);
    const startAfter = `now() + ${Number(leaseSeconds)} * interval '1 second'`;
    return `model_job AS (
      INSERT INTO ${queue}.job (id, name, data, start_after, singleton_key, dead_letter, expire_in,
        keep_until, retry_limit, retry_delay, retry_backoff, policy)
      SELECT gen_random_uuid(), q.name, ${data}::jsonb, ${startAfter}, s.thread_id, q.dead_letter,
        ${Number(leaseSeconds)} * interval '1 second',
        ${startAfter} + COALESCE(q.retention_minutes * interval '1 minute', interval '14 days'),
        ${Number(retryLimit)}, 1, true, q.policy
      FROM ${source} AS s JOIN ${queue}.queue AS q ON q.name = '${QUEUE}'
      WHERE ${data}::jsonb IS NOT NULL
      ON CONFLICT DO NOTHING RETURNING id)`;
  }

  async finish(jobId: string, client?: pg.PoolClient): Promise<void> {
    await this.boss.deleteJob(QUEUE, jobId, client ? { db: inTransaction(client) } : {});
  }

  /** Starts pg-boss and creates the queue (the database set-up): jobs can be sent from then on. */
  async open() {
    await withQueueSetupLock(this.setupPool, async () => {
      await this.boss.start();
      this.started = true;
      if (!(await this.boss.getQueue(QUEUE)))
        await this.boss.createQueue(QUEUE, { name: QUEUE, policy: 'stately' });
    });
  }

  async work(run: (job: ModelJob, jobId: string) => Promise<void>) {
    this.workers = startQueueWorkers({
      boss: this.boss,
      queue: QUEUE,
      concurrency: this.settings.concurrency,
      pollMs: POLL_MS,
      handler: (job: PgBoss.JobWithMetadata<ModelJob>) => run(job.data, job.id),
      onQueueError: (error) => this.onQueueError(error),
    });
  }

  async stop() {
    await stopQueue(this.boss, this.workers, this.started);
    this.workers = undefined;
    this.started = false;
  }

  private onQueueError(error: unknown) {
    reportQueueError(this.settings, 'model work queue', error);
  }
}
