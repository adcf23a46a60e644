import { isDatabaseUnreachable, type DatabaseHealth } from '@repo/pg-kit';
import PgBoss from 'pg-boss';
import type pg from 'pg';
import type { Logger } from 'pino';
import { withQueueSetupLock } from '../db/setup-database.js';
import { queueSchema } from '../db/tables.js';
import { startQueueWorkers, type JobHandler, type WorkOptions } from './queue-workers.js';

interface JobRunnerSettings {
  connectionString: string;
  schema: string;
  /** Connections of pg-boss's pool (its fetches, completions and maintenance). */
  max: number;
  /** How often pg-boss hands a dead worker's expired job out again. */
  maintenanceIntervalSeconds: number;
  logger: Logger;
  /** Where the queue's connection failures count as one outage (logged once), not one line each. */
  health?: DatabaseHealth;
}

/** One queue of the runner, for the feature that owns it: its jobs and this instance's workers. */
export interface JobQueue<T extends object> {
  /** Queues `data` in `client`'s transaction (or on its own); null if a singleton key refuses it. */
  send(data: T, options: PgBoss.SendOptions, client?: pg.PoolClient): Promise<string | null>;
  /** Deletes a job inside the transaction on `client`: the job is done when its result commits. */
  deleteJob(id: string, client?: pg.PoolClient): Promise<void>;
  /** Creates (or moves) the queue's schedule: one job per `cron` tick, whichever instances run. */
  schedule(cron: string): Promise<void>;
  /** Starts the queue's workers, once; a handler's throw fails its job (pg-boss retries it). */
  work(options: WorkOptions, handler: JobHandler<T>): Promise<void>;
  /** Lets each worker finish its job, then ends them. */
  stop(): Promise<void>;
}

/**
 * The process's one pg-boss, in `<schema>_pgboss`: each feature opens its queues on it (`queue`).
 * Jobs are sent inside the caller's transaction (pg-boss's `db` option), so a job exists exactly
 * when the change that asked for it committed.
 */
export class JobRunner {
  private readonly boss: PgBoss;
  private readonly queues: PgBoss.Queue[] = [];
  private readonly opened = new Set<{ stop(): Promise<void> }>();
  private setupPool: pg.Pool | undefined;

  constructor(private readonly settings: JobRunnerSettings) {
    this.boss = new PgBoss({
      connectionString: settings.connectionString,
      schema: queueSchema(settings.schema),
      max: settings.max,
      application_name: 'email-review-jobs',
      maintenanceIntervalSeconds: settings.maintenanceIntervalSeconds,
    });
    this.boss.on('error', (error: unknown) => this.onError(error));
  }

  /**
   * The queue `name`, created by `start`, or at once when that has run. A dead letter queue is
   * opened before the queue that names it (a deferred foreign key).
   */
  queue<T extends object>(name: string, options?: Omit<PgBoss.Queue, 'name'>): JobQueue<T> {
    const created = { name, ...options };
    this.queues.push(created);
    const registered = this.setupPool && this.createQueues(this.setupPool, [created]);
    let stopWorkers: (() => Promise<void>) | undefined;
    const queue: JobQueue<T> = {
      send: async (data, sendOptions, client) => {
        await registered;
        return this.boss.send(name, data, { ...sendOptions, ...inTransaction(client) });
      },
      deleteJob: async (id, client) => {
        await this.boss.deleteJob(name, id, inTransaction(client));
      },
      schedule: async (cron) => {
        await registered;
        await this.boss.schedule(name, cron);
      },
      work: async (workOptions, handler) => {
        await registered;
        stopWorkers ??= startQueueWorkers<T>({
          boss: this.boss,
          queue: name,
          ...workOptions,
          handler,
          onQueueError: (error) => this.onError(error),
        });
      },
      stop: async () => {
        const stopping = stopWorkers;
        stopWorkers = undefined;
        await stopping?.();
      },
    };
    this.opened.add(queue);
    return queue;
  }

  /** Starts pg-boss (its migrations) and creates the registered queues, one instance at a time. */
  async start(setupPool: pg.Pool): Promise<void> {
    if (this.setupPool) return;
    await this.createQueues(setupPool, this.queues, () => this.boss.start());
    this.setupPool = setupPool;
  }

  /** Lets every worker finish its job, then stops pg-boss. */
  async stop(): Promise<void> {
    await Promise.all([...this.opened].map((queue) => queue.stop()));
    if (this.setupPool) await this.boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    this.setupPool = undefined;
  }

  private createQueues(setupPool: pg.Pool, queues: PgBoss.Queue[], first?: () => Promise<unknown>) {
    return withQueueSetupLock(setupPool, async () => {
      await first?.();
      for (const queue of queues)
        if (!(await this.boss.getQueue(queue.name))) await this.boss.createQueue(queue.name, queue);
    });
  }

  /** pg-boss polls on its own: an outage would log on every beat, so it counts as one outage. */
  private onError(error: unknown) {
    const { health, logger } = this.settings;
    if (health && isDatabaseUnreachable(error)) health.markDown(error);
    else logger.warn({ err: error }, 'job queue error');
  }
}

/** pg-boss's executor over a transaction's client, so a job is written inside that transaction. */
const inTransaction = (client: pg.PoolClient | undefined): { db?: PgBoss.Db } =>
  client ? { db: { executeSql: (text, values) => client.query(text, values) } } : {};
