import type PgBoss from 'pg-boss';
import type { Transaction } from '../persistence/transaction.js';
import { ThreadMovedOn } from '../threads/thread-errors.js';
import type { JobRunner } from './job-runner.js';
import type { ModelJob, ModelJobs } from './model-jobs.js';
import type { QueueWorkers } from './queue-workers.js';

const QUEUE = 'email-model-work';
/** How often an idle worker looks for a job whose instance died. */
const POLL_MS = 1_000;

export interface ModelJobSettings {
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
}

/**
 * The model work as pg-boss jobs (queue policy `stately`, singleton key = thread id: one waiting
 * and one running per thread at most). pg-boss 10 cannot fetch a job by id, so the sending
 * instance claims its job by time: the job is sent with `startAfter` = the lease, the sender runs
 * it at once, and the transaction that commits the result (compare-and-set on the thread) deletes
 * the job. Only when the sender died (or its run outlived the lease) does the job become due, and
 * any instance's worker takes it, runs it (resuming from the checkpoint) and commits the same way;
 * pg-boss's expiry and retryLimit cover a worker that dies in turn. Two runs of one job can only
 * overlap past the lease, and then the compare-and-set lets one result in.
 */
export class PostgresModelJobs implements ModelJobs {
  private workers: QueueWorkers | undefined;

  constructor(
    private readonly jobs: JobRunner,
    private readonly settings: ModelJobSettings,
  ) {
    void jobs.register(QUEUE, { policy: 'stately' });
  }

  async send(job: ModelJob, tx: Transaction): Promise<string> {
    const { leaseSeconds, retryLimit } = this.settings;
    const options = {
      singletonKey: job.thread_id,
      startAfter: leaseSeconds,
      expireInSeconds: leaseSeconds,
      retryLimit,
      retryDelay: 1,
      retryBackoff: true,
    };
    const id = await this.jobs.send(QUEUE, job, options, tx.client);
    // The thread's previous job is still there: its change has not committed its result yet.
    if (!id) throw new ThreadMovedOn(job.thread_id);
    return id;
  }

  finish(jobId: string, tx: Transaction): Promise<void> {
    return this.jobs.deleteJob(QUEUE, jobId, tx.client);
  }

  async work(run: (job: ModelJob, jobId: string) => Promise<void>) {
    const options = { concurrency: this.settings.concurrency, pollMs: POLL_MS };
    this.workers = this.jobs.work(QUEUE, options, (job: PgBoss.JobWithMetadata<ModelJob>) =>
      run(job.data, job.id),
    );
  }

  async stop() {
    await this.workers?.stop();
    this.workers = undefined;
  }
}
