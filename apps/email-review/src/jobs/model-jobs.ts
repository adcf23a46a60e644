import type { Transaction } from '../persistence/transaction.js';

/**
 * One thread's model work: classify and draft a new thread, redraft with a reviewer's instructions,
 * or resume a failed run (retry). The thread is `drafting` while its job exists.
 */
export interface ModelJob {
  thread_id: string;
  kind: 'draft' | 'redraft' | 'retry';
  /** redraft: the reviewer's instructions and who gave them (the history's `redrafted`). */
  instructions?: string;
  actor?: string;
}

/**
 * The model work's queue: sent in the transaction of the change that asks for it, finished in the
 * one that commits its result (PostgreSQL: postgres-model-jobs.ts; memory: only the in-process run).
 */
export interface ModelJobs {
  /** Queues `job` inside `tx`; returns its id. */
  send(job: ModelJob, tx: Transaction): Promise<string>;
  /** The job's result is being committed in `tx`: the job is done with it. */
  finish(jobId: string, tx: Transaction): Promise<void>;
  /** Runs, with `run`, the jobs whose first instance died (PostgreSQL); memory mode has none. */
  work(run: (job: ModelJob, jobId: string) => Promise<void>): Promise<void>;
  /** Ends the workers (each finishes its job). */
  stop(): Promise<void>;
}

/** Memory mode: each job is run by the request that sent it; a crash takes every thread with it. */
export const inProcessModelJobs = (): ModelJobs => {
  let next = 0;
  return {
    send: async () => `job-${(next += 1)}`,
    finish: async () => {},
    work: async () => {},
    stop: async () => {},
  };
};
