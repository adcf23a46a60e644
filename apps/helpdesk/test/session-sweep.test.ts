import pg from 'pg';
import { SWEEP_LOCK } from '../src/db/lock-keys.js';
import {
  INVOICE_QUESTION,
  ManualClock,
  startHelpdesk,
  type HelpdeskUnderTest,
} from './support/harness.js';
import { dropSchema, TEST_DATABASE_URL, testSchema } from './support/service-process.js';

const TTL_MS = 60_000;
const schema = testSchema('hd_sweep');
const clock = new ManualClock();
let helpdesk: HelpdeskUnderTest;
/** Another instance, as far as leases and locks go: a connection of the test's own. */
let other: pg.Client;

async function storedIds(): Promise<string[]> {
  const result = await other.query<{ session_id: string }>(
    `SELECT session_id FROM "${schema}".helpdesk_sessions ORDER BY session_id`,
  );
  return result.rows.map((row) => row.session_id);
}

beforeAll(async () => {
  helpdesk = await startHelpdesk({
    chat: { sessionTtlMs: TTL_MS, clock: clock.read },
    database: { connectionString: TEST_DATABASE_URL, schema, poolMax: 4 },
  });
  other = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await other.connect();
});

afterAll(async () => {
  await other?.end();
  await helpdesk?.close();
  await dropSchema(schema);
});

beforeEach(async () => {
  await other.query(`DELETE FROM "${schema}".helpdesk_sessions`);
});

describe('the TTL sweep of sessions in PostgreSQL', () => {
  it('when sessions are idle past the TTL, then the sweep deletes those and keeps recent ones and ones in a turn', async () => {
    await helpdesk.send('idle-1', INVOICE_QUESTION).expect(200);
    await helpdesk.send('in-turn-1', INVOICE_QUESTION).expect(200);
    clock.advance(30_000);
    await helpdesk.send('recent-1', INVOICE_QUESTION).expect(200);
    clock.advance(40_000);
    // A turn of in-turn-1 running on another instance holds its lease.
    await other.query(
      `INSERT INTO "${schema}".helpdesk_session_leases (app_name, user_id, session_id, owner, expires_at)
       VALUES ('helpdesk', 'helpdesk', 'in-turn-1', gen_random_uuid(), now() + interval '1 minute')`,
    );
    try {
      expect(await helpdesk.chat.evictExpired()).toBe(1);
    } finally {
      await other.query(`DELETE FROM "${schema}".helpdesk_session_leases`);
    }

    expect(await storedIds()).toEqual(['in-turn-1', 'recent-1']);
    await helpdesk.http.get('/sessions/idle-1').expect(404);
    await helpdesk.http.get('/sessions/recent-1').expect(200);
  });

  it('when another instance is sweeping, then this one skips its sweep', async () => {
    await helpdesk.send('idle-2', INVOICE_QUESTION).expect(200);
    clock.advance(TTL_MS + 1);
    await other.query('SELECT pg_advisory_lock($1, $2)', [...SWEEP_LOCK]);
    try {
      expect(await helpdesk.chat.evictExpired()).toBe(0);
      expect(await storedIds()).toEqual(['idle-2']);
    } finally {
      await other.query('SELECT pg_advisory_unlock($1, $2)', [...SWEEP_LOCK]);
    }

    expect(await helpdesk.chat.evictExpired()).toBe(1);
    expect(await storedIds()).toEqual([]);
  });

  it('when a session expired but is not swept yet, then it is not shown and its next message starts afresh', async () => {
    await helpdesk.send('expired-1', INVOICE_QUESTION).expect(200);
    clock.advance(TTL_MS + 1);

    await helpdesk.http.get('/sessions/expired-1').expect(404);
    await helpdesk.send('expired-1', 'Is the API down?').expect(200);
    const res = await helpdesk.http.get('/sessions/expired-1').expect(200);
    expect(res.body.turns).toHaveLength(2);
  });
});
