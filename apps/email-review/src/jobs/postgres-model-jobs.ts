import { ThreadMovedOn } from '../threads/thread-errors.js';
import type { JobRunner } from './job-runner.js';
import type { ModelJob, ModelJobs } from './model-jobs.js';

const QUEUE = 'email-model-work';
/** How often an idle worker looks for a job whose instance died. */
const POLL_MS = 1_000;

interface ModelJobSettings {
  /** The longest a run may take: the job is anyone's after this (`startAfter`, `expireInSeconds`). */
  leaseSeconds: number;
  /** Jobs of dead instances taken at once by this one. */
  concurrency: number;
  /** Reruns of a job whose run could not commit (the database away, its worker dead). */
  retryLimit: number;
}

/**
 * The model work as pg-boss jobs (policy `stately`, singleton key = thread id). pg-boss 10 cannot
 * fetch a job by id, so the sender claims its job by time: sent with `startAfter` = the lease, run
 * at once by the sender, deleted by the transaction that commits the result. Only if the sender died
 * does the job become due for any instance's worker, which resumes from the checkpoint; past the
 * lease two runs may overlap, and the thread's compare-and-set lets one result in.
 */
export function postgresModelJobs(jobs: JobRunner, settings: ModelJobSettings): ModelJobs {
  const queue = jobs.queue<ModelJob>(QUEUE, { policy: 'stately' });
  const { leaseSeconds, retryLimit, concurrency } = settings;
  return {
    send: async (job, tx) => {
      const options = {
        singletonKey: job.thread_id,
        startAfter: leaseSeconds,
        expireInSeconds: leaseSeconds,
        retryLimit,
        retryDelay: 1,
        retryBackoff: true,
      };
      const id = await queue.send(job, options, tx.client);
      // The thread's previous job is still there: its change has not committed its result yet.
      if (!id) throw new ThreadMovedOn(job.thread_id);
      return id;
    },
    finish: (jobId, tx) => queue.deleteJob(jobId, tx.client),
    work: (run) => queue.work({ concurrency, pollMs: POLL_MS }, (job) => run(job.data, job.id)),
    stop: () => queue.stop(),
  };
}
