import type pg from 'pg';
import { SESSION_LOCK_SPACE, SWEEP_LOCK } from './lock-keys.js';
import { sessionsTable } from './tables.js';

/** Rows deleted per statement: each holds one advisory lock until the statement commits. */
const BATCH = 200;

/**
 * Deletes sessions unused since `cutoff`, run by one instance at a time (a session-level
 * advisory lock the others fail to take, and skip). Only idle sessions go: a session whose lock
 * a turn holds is skipped (`pg_try_advisory_xact_lock` fails), and a row written after the
 * candidates were picked is re-checked by the DELETE itself. Returns how many went.
 */
export async function sweepIdleSessions(
  pool: pg.Pool,
  schema: string,
  ids: { appName: string; userId: string },
  cutoff: Date,
): Promise<number> {
  const sessions = sessionsTable(schema);
  const sweep = `
    WITH stale AS MATERIALIZED (
      SELECT session_id FROM ${sessions}
      WHERE app_name = $1 AND user_id = $2 AND updated_at < $3
      ORDER BY updated_at LIMIT ${BATCH}
    ), idle AS MATERIALIZED (
      SELECT session_id FROM stale WHERE pg_try_advisory_xact_lock(${SESSION_LOCK_SPACE}, hashtext(session_id))
    )
    DELETE FROM ${sessions} AS s USING idle
    WHERE s.app_name = $1 AND s.user_id = $2 AND s.session_id = idle.session_id AND s.updated_at < $3`;
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
