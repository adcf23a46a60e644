import type pg from 'pg';
import type { Logger } from '@repo/http-kit';
import { sessionBusy } from '../sessions/session-busy.js';
import { SESSION_LOCK_SPACE } from './lock-keys.js';

/** A session's lock, held by one connection; the turn's reads and its one write go through it. */
export interface SessionLock {
  query<R extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<pg.QueryResult<R>>;
  release(): Promise<void>;
}

/** SQLSTATE of `lock_timeout` running out. */
const LOCK_NOT_AVAILABLE = '55P03';

/**
 * Takes a session's PostgreSQL advisory lock on a connection of the lock pool and keeps it for
 * the turn, so turns of one session are serialized across every instance on the database. The
 * lock belongs to the connection: if the process dies (SIGKILL), its socket closes and
 * PostgreSQL frees the lock at once. The turn's write goes through the same connection, so it
 * can only land while the lock is still held: a holder whose connection died cannot write.
 */
export async function lockSession(
  lockPool: pg.Pool,
  sessionId: string,
  logger: Logger,
): Promise<SessionLock> {
  const client = await lockPool.connect();
  // A checked-out client has no pool listener: without ours, a dropped connection would crash the process.
  const onError = (error: Error) =>
    logger.warn({ err: error, session_id: sessionId }, 'session lock connection lost');
  client.on('error', onError);
  const giveBack = (error?: unknown) => {
    client.off('error', onError);
    client.release(error === undefined ? undefined : error instanceof Error ? error : true);
  };
  try {
    await client.query('SELECT pg_advisory_lock($1, hashtext($2))', [
      SESSION_LOCK_SPACE,
      sessionId,
    ]);
  } catch (error) {
    giveBack(error);
    if ((error as { code?: unknown }).code === LOCK_NOT_AVAILABLE) {
      throw sessionBusy(
        sessionId,
        `Session ${sessionId} is busy on another instance; retry later.`,
      );
    }
    throw error;
  }
  let released = false;
  return {
    query: (text, values) => client.query(text, values),
    release: async () => {
      if (released) return;
      released = true;
      try {
        await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [
          SESSION_LOCK_SPACE,
          sessionId,
        ]);
        giveBack();
      } catch (error) {
        // Destroying the connection ends its session, which frees the lock all the same.
        giveBack(error);
      }
    },
  };
}
