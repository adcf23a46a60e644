import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { HeldReaderLock, MailboxState, ReaderLock } from './mailbox-state.js';
import { table } from '../db/tables.js';

/** Advisory-lock key space of the mailbox reader ('EMMB'); the second key is the schema's hash. */
const READER_LOCK = 0x454d4d42;
/** How often a standby instance asks for the lock, and the reader checks its connection. */
const CHECK_MS = 5_000;

/** The reader's place per mailbox and UIDVALIDITY, in `email_mailbox_state` (src/db/tables.ts). */
export function postgresMailboxState(pool: pg.Pool, schema: string): MailboxState {
  const state = table(schema, 'email_mailbox_state');
  return {
    async lastUid(mailbox, uidValidity) {
      const found = await pool.query<{ last_uid: string }>(
        `SELECT last_uid FROM ${state} WHERE mailbox = $1 AND uid_validity = $2`,
        [mailbox, uidValidity],
      );
      return Number(found.rows[0]?.last_uid ?? 0);
    },
    async markDone(mailbox, uidValidity, uid) {
      await pool.query(
        `INSERT INTO ${state} (mailbox, uid_validity, last_uid) VALUES ($1, $2, $3)
         ON CONFLICT (mailbox, uid_validity)
         DO UPDATE SET last_uid = GREATEST(${state}.last_uid, EXCLUDED.last_uid), updated_at = now()`,
        [mailbox, uidValidity, uid],
      );
    },
  };
}

const pause = (ms: number, signal: AbortSignal) => sleep(ms, undefined, { signal }).catch(() => {});

/**
 * The reader's session-level advisory lock, held on a connection of its own (not the pool's): it
 * lasts exactly as long as that connection, so a reader that dies (SIGKILL included) frees it as
 * soon as PostgreSQL sees the socket close, and a standby takes it within CHECK_MS.
 */
export function postgresReaderLock(connectionString: string, schema: string): ReaderLock {
  return {
    async acquire(signal) {
      while (!signal.aborted) {
        const client = new pg.Client({ connectionString, connectionTimeoutMillis: CHECK_MS });
        client.on('error', () => {});
        try {
          await client.connect();
          while (!signal.aborted) {
            const taken = await client.query<{ ok: boolean }>(
              'SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok',
              [READER_LOCK, schema],
            );
            if (taken.rows[0]?.ok) return held(client);
            await pause(CHECK_MS, signal);
          }
        } catch {
          // The database is away: try again later, on a new connection.
        }
        await client.end().catch(() => {});
        await pause(CHECK_MS, signal);
      }
      return undefined;
    },
  };
}

function held(client: pg.Client): HeldReaderLock {
  let timer: NodeJS.Timeout | undefined;
  const lost = new Promise<void>((resolve) => {
    client.once('end', resolve);
    client.once('error', resolve);
    // A connection that went silent (no error yet) is found by asking it.
    timer = setInterval(() => {
      client.query({ text: 'SELECT 1', query_timeout: CHECK_MS } as pg.QueryConfig).catch(() => {
        resolve();
        void client.end().catch(() => {});
      });
    }, CHECK_MS);
  }).finally(() => clearInterval(timer));
  return {
    lost,
    async release() {
      clearInterval(timer);
      await client.end().catch(() => {});
    },
  };
}
