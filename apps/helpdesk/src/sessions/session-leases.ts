import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { backoffMs, type Backoff, type Logger } from '@repo/http-kit';
import type pg from 'pg';
import { sessionBusy } from './session-queues.js';
import { SESSION_KEY, sessionLeasesTable } from '../db/tables.js';

interface LeaseSettings {
  /** How long a lease lasts unless renewed: a dead holder's session is free again after it. */
  ttlMs: number;
  /** How long a turn waits for another instance's turn of the same session before 429. */
  waitMs: number;
}

/** A session's key and a lease's owner: $1–$4 of every statement on a lease. */
export type LeaseKey = [appName: string, userId: string, sessionId: string, owner: string];

/** A turn's claim on its session, renewed until `stop`; the turn's last statement gives it back. */
export interface SessionLease {
  readonly key: LeaseKey;
  /** Set once a statement gave the lease back (or found it was no longer this turn's). */
  given: boolean;
  stop(): void;
}

/** A claim's polls of a session another turn holds. */
const CLAIM_POLLS: Backoff = { firstMs: 10, maxMs: 250, jitter: [0.5, 1.5] };

/**
 * The head of a statement that gives the lease `$1…$4` back and writes only if it still held it
 * (`… FROM released`). Deleting the lease row locks it: another instance's claim either came
 * first (nothing released, nothing written) or waits for this commit and reads what it wrote.
 */
export const releasing = (schema: string) =>
  `WITH released AS (DELETE FROM ${sessionLeasesTable(schema)} WHERE ${SESSION_KEY} AND owner = $4 RETURNING 1)`;

function statements(schema: string) {
  const leases = sessionLeasesTable(schema);
  const expiry = 'now() + make_interval(secs => $5::double precision / 1000)';
  return {
    // Free or expired: taken, in one statement. Someone else's live lease: left alone.
    claim: `INSERT INTO ${leases} AS l (app_name, user_id, session_id, owner, expires_at)
            VALUES ($1, $2, $3, $4, ${expiry})
            ON CONFLICT (app_name, user_id, session_id) DO UPDATE
              SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at
              WHERE l.expires_at <= now()`,
    renew: `UPDATE ${leases} SET expires_at = ${expiry} WHERE ${SESSION_KEY} AND owner = $4`,
    give: `DELETE FROM ${leases} WHERE ${SESSION_KEY} AND owner = $4`,
  };
}

/**
 * One lease row per session with a turn running: its turns run one at a time on every instance,
 * holding no connection. A dead holder's lease expires, on the database's clock.
 */
export class SessionLeases {
  private readonly sql: ReturnType<typeof statements>;

  constructor(
    private readonly pool: pg.Pool,
    schema: string,
    private readonly settings: LeaseSettings,
    private readonly logger: Logger,
  ) {
    this.sql = statements(schema);
  }

  /** Claims the session, polling while another turn holds it, at most `waitMs` (then 429). */
  async claim(appName: string, userId: string, sessionId: string): Promise<SessionLease> {
    const key: LeaseKey = [appName, userId, sessionId, randomUUID()];
    const deadline = Date.now() + this.settings.waitMs;
    for (let retry = 1; ; retry += 1) {
      const taken = await this.pool.query(this.sql.claim, [...key, this.settings.ttlMs]);
      if (taken.rowCount === 1) return this.renewing(key);
      const wait = backoffMs(CLAIM_POLLS, retry);
      if (Date.now() + wait > deadline) {
        throw sessionBusy(
          sessionId,
          `Session ${sessionId} is busy on another instance; retry later.`,
        );
      }
      await sleep(wait);
    }
  }

  /** Gives the lease back without writing (if this fails, the lease expires after its ttl). */
  async give(lease: SessionLease): Promise<void> {
    lease.stop();
    lease.given = true;
    await this.pool.query(this.sql.give, lease.key).catch(() => undefined);
  }

  private renewing(key: LeaseKey): SessionLease {
    let stopped = false;
    const stop = () => {
      stopped = true;
      clearInterval(renewal);
    };
    // A live holder renews a third of the way through its lease.
    const everyMs = Math.max(50, Math.floor(this.settings.ttlMs / 3));
    const renewal = setInterval(() => {
      this.pool
        .query(this.sql.renew, [...key, this.settings.ttlMs])
        .then((renewed) => {
          // A renewal that crossed the turn's last statement finds the lease given back: no loss.
          if (renewed.rowCount === 1 || stopped) return;
          stop();
          this.logger.warn({ session_id: key[2] }, 'session lease lost to another turn');
        })
        // The database away: its outage is logged once elsewhere; the next renewal tries again.
        .catch(() => undefined);
    }, everyMs);
    renewal.unref();
    return { key, given: false, stop };
  }
}
