import type pg from 'pg';
import { SWEEP_LOCK } from '../db/lock-keys.js';
import { sessionLeasesTable, sessionsTable } from '../db/tables.js';

/** Rows deleted per statement. */
const BATCH = 200;
/** A lease expired this long ago is a crashed turn's leftover, not a slow holder's. */
const LEFTOVER_LEASE_AGE = "interval '1 hour'";

/**
 * Deletes sessions unused since `cutoff` (not one with a live lease or written since picked) and
 * leases crashed turns left, on one instance at a time; returns how many sessions went.
 */
export async function sweepIdleSessions(
  pool: pg.Pool,
  schema: string,
  ids: { appName: string; userId: string },
  cutoff: Date,
): Promise<number> {
  const sessions = sessionsTable(schema);
  const leases = sessionLeasesTable(schema);
  const sweep = `
    WITH idle AS MATERIALIZED (
      SELECT s.session_id FROM ${sessions} AS s
      WHERE s.app_name = $1 AND s.user_id = $2 AND s.updated_at < $3
        AND NOT EXISTS (
          SELECT 1 FROM ${leases} AS l
          WHERE l.app_name = $1 AND l.user_id = $2 AND l.session_id = s.session_id AND l.expires_at > now())
      ORDER BY s.updated_at LIMIT ${BATCH}
    )
    DELETE FROM ${sessions} AS s USING idle
    WHERE s.app_name = $1 AND s.user_id = $2 AND s.session_id = idle.session_id AND s.updated_at < $3`;
  const leftovers = `DELETE FROM ${leases} WHERE app_name = $1 AND user_id = $2 AND expires_at < now() - ${LEFTOVER_LEASE_AGE}`;
  const client = await pool.connect();
  let failure: Error | undefined;
  try {
    const { rows } = await client.query<{ won: boolean }>(
      'SELECT pg_try_advisory_lock($1, $2) AS won',
      [...SWEEP_LOCK],
    );
    if (!rows[0]?.won) return 0;
    let deleted = 0;
    try {
      for (;;) {
        const result = await client.query(sweep, [ids.appName, ids.userId, cutoff]);
        deleted += result.rowCount ?? 0;
        if ((result.rowCount ?? 0) < BATCH) break;
      }
      await client.query(leftovers, [ids.appName, ids.userId]);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1, $2)', [...SWEEP_LOCK]);
    }
    return deleted;
  } catch (error) {
    // A connection that failed mid-sweep is destroyed, which also frees the sweep's lock.
    failure = error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    client.release(failure);
  }
}
