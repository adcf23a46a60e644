import type pg from 'pg';
import type { Logger } from 'pino';
import { ThreadLocksUnavailable } from '../locks/lock-errors.js';
import type { ThreadLease, ThreadLocks } from '../locks/thread-locks.js';

/** First key of this service's advisory locks ('EMLR'); the second is the thread id's hash. */
export const THREAD_LOCK_SPACE = 0x454d4c52;

/**
 * Session-level PostgreSQL advisory locks, so the exclusion holds across every instance sharing the
 * database. Each held lock keeps its own connection for the whole run (the lock belongs to that
 * session); these come from a pool of their own so that lock holders can never starve the queries
 * they are waiting on. A crashed holder's session ends and PostgreSQL frees the lock. The lock pool has
 * a connection timeout: when every lock connection is busy, a change is refused (503) instead of
 * waiting for one indefinitely.
 */
export class PostgresThreadLocks implements ThreadLocks {
  constructor(
    private readonly lockPool: pg.Pool,
    private readonly logger: Logger,
  ) {}

  async tryAcquire(threadId: string): Promise<ThreadLease | undefined> {
    const client = await this.lockPool.connect().catch((error: unknown) => {
      throw new ThreadLocksUnavailable(threadId, { cause: error });
    });
    // A checked-out client has no pool listener: without ours, a dropped connection would crash the process.
    const onError = (error: Error) =>
      this.logger.warn({ err: error, thread_id: threadId }, 'lock connection lost');
    client.on('error', onError);
    let locked: boolean;
    try {
      const result = await client.query<{ locked: boolean }>({
        name: 'er_thread_lock',
        text: 'SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked',
        values: [THREAD_LOCK_SPACE, threadId],
      });
      locked = result.rows[0]?.locked === true;
    } catch (error) {
      client.off('error', onError);
      client.release(error instanceof Error ? error : true);
      throw error;
    }
    if (!locked) {
      client.off('error', onError);
      client.release();
      return undefined;
    }
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        try {
          await client.query({
            name: 'er_thread_unlock',
            text: 'SELECT pg_advisory_unlock($1, hashtext($2))',
            values: [THREAD_LOCK_SPACE, threadId],
          });
          client.off('error', onError);
          client.release();
        } catch (error) {
          // Destroying the connection ends its session, which frees the lock all the same.
          client.off('error', onError);
          client.release(error instanceof Error ? error : true);
        }
      },
    };
  }
}
