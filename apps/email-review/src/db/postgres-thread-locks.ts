import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { ThreadLease, ThreadLocks } from '../locks/thread-locks.js';
import { table } from './tables.js';

export interface LeaseSettings {
  /** How long a lease lasts unless renewed; a dead holder's lease frees the thread after this. */
  ttlMs: number;
  /** How often a live holder renews it (default a third of the ttl). */
  renewEveryMs?: number;
}

/**
 * Per-thread leases in a table (`email_thread_leases`: thread, owner, expiry on the database's clock),
 * so the exclusion holds across every instance sharing the database.
 *
 * Why leases and not session advisory locks: an advisory lock belongs to a session, so each held lock
 * kept a connection for the whole run, model call included — ten creates hanging on a slow model held
 * every lock connection and reviewers got 503. A lease costs one short statement to take, one to
 * renew every `renewEveryMs` and one to give back; no connection is held in between, and a create
 * competes for nothing a reviewer needs. A holder that dies stops renewing: its lease expires after
 * `ttlMs` and the thread can be taken again (the orphan recovery does that).
 *
 * A holder paused longer than the ttl (it cannot renew) can overlap with the next holder. Its writes
 * to the index and its approval are fenced with the lease's owner (postgres-thread-store.ts,
 * postgres-deliveries.ts): they are refused (409 thread_busy) once the lease has passed on. Its late
 * checkpoint write is not (LangGraph's saver knows no lease), but approve compares the checkpoint's
 * draft with the view's and re-derives the view on any difference, so no text the reviewer was not
 * shown is ever sent.
 */
export class PostgresThreadLocks implements ThreadLocks {
  private readonly sql: Record<'take' | 'renew' | 'give', string>;
  private readonly renewEveryMs: number;

  constructor(
    private readonly pool: pg.Pool,
    schema: string,
    private readonly settings: LeaseSettings,
    private readonly logger: Logger,
  ) {
    const leases = table(schema, 'email_thread_leases');
    this.renewEveryMs = settings.renewEveryMs ?? Math.max(50, Math.floor(settings.ttlMs / 3));
    this.sql = {
      // Takes a free or expired lease in one statement; a live one of someone else is left alone.
      take: `INSERT INTO ${leases} AS l (thread_id, owner, expires_at)
             VALUES ($1, $2, now() + make_interval(secs => $3::double precision / 1000))
             ON CONFLICT (thread_id) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at
             WHERE l.expires_at <= now()
             RETURNING owner`,
      renew: `UPDATE ${leases} SET expires_at = now() + make_interval(secs => $3::double precision / 1000)
              WHERE thread_id = $1 AND owner = $2`,
      give: `DELETE FROM ${leases} WHERE thread_id = $1 AND owner = $2`,
    };
  }

  async tryAcquire(threadId: string): Promise<ThreadLease | undefined> {
    const owner = randomUUID();
    const taken = await this.pool.query(this.sql.take, [threadId, owner, this.settings.ttlMs]);
    if (taken.rowCount !== 1) return undefined;
    let lost = false;
    const renewal = setInterval(() => {
      this.pool
        .query(this.sql.renew, [threadId, owner, this.settings.ttlMs])
        .then((renewed) => {
          if (renewed.rowCount === 1 || lost) return;
          lost = true;
          this.logger.warn({ thread_id: threadId }, 'thread lease lost to another holder');
        })
        .catch(() => {
          // The database is away: the outage is logged once elsewhere; the next renewal tries again.
        });
    }, this.renewEveryMs);
    renewal.unref();
    let released = false;
    return {
      owner,
      release: async () => {
        if (released) return;
        released = true;
        clearInterval(renewal);
        // If this fails the lease simply expires after its ttl.
        await this.pool.query(this.sql.give, [threadId, owner]).catch(() => undefined);
      },
    };
  }
}
