import { startEmulator, type Emulator } from '@repo/llm-emulator';
import pg from 'pg';
import request from 'supertest';
import type { ThreadStore } from '../src/threads/thread-store.js';
import {
  dropSchema,
  freshSchema,
  postgresTestsEnabled,
  TEST_DATABASE_URL,
} from './support/database.js';
import { BILLING_EMAIL } from './support/emails.js';
import { startInstance, type Instance } from './support/harness.js';

const withPostgres = await postgresTestsEnabled();

/** Collects the instance's log lines. */
class LogLines {
  readonly lines: string[] = [];
  write(line: string): void {
    this.lines.push(line);
  }
  get text(): string {
    return this.lines.join('');
  }
}

describe('logs', () => {
  const schema = freshSchema('logs');
  let emulator: Emulator;
  let instance: Instance | undefined;

  beforeAll(async () => {
    emulator = await startEmulator();
  });
  afterEach(async () => {
    await instance?.close();
    instance = undefined;
  });
  afterAll(async () => {
    await emulator?.close();
    if (withPostgres) await dropSchema(schema);
  });

  (withPostgres ? test : test.skip)(
    "when PostgreSQL refuses a thread's row, then the error is logged without its detail (the failing row, with the email's text)",
    async () => {
      const log = new LogLines();
      const db = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 1 });
      // The index write of the drafted thread (the model job's result) fails as a constraint would:
      // PostgreSQL's detail says "Failing row contains (…)", the view and so the email included.
      const refuseRow = (threads: ThreadStore): ThreadStore => {
        const saveDecision = threads.saveDecision.bind(threads);
        threads.saveDecision = async (tx, change) => {
          const { view } = change;
          if (view.status !== 'awaiting_review' || change.from !== 'drafting')
            return saveDecision(tx, change);
          await db.query(
            `INSERT INTO "${schema}".email_threads (thread_id, status, view) VALUES ($1, NULL, $2)`,
            [`${view.thread_id}-copy`, view],
          );
          return true;
        };
        return threads;
      };
      instance = await startInstance({
        mode: 'postgres',
        emulator,
        schema,
        logTo: log,
        wrapThreads: refuseRow,
      });
      const secret = 'Zebra-Secret-4711 my card number';

      const res = await request(instance.app)
        .post('/threads')
        .send({ inbound: `${BILLING_EMAIL}\n${secret}` });
      await db.end();

      expect(res.status).toBe(500);
      expect(res.body.thread_id).toEqual(expect.any(String));
      expect(log.text).toContain('23502');
      expect(log.text).not.toContain('Zebra-Secret');
      expect(log.text).not.toContain('Failing row');
    },
  );

  test('when a token is sent as ?token=, then the logged URL carries no token, and JSON answers say nosniff', async () => {
    const log = new LogLines();
    instance = await startInstance({ mode: 'memory', emulator, logTo: log });

    const listed = await request(instance.app).get('/threads?limit=5&token=supersecret-123');
    const missing = await request(instance.app).get('/threads/unknown-thread');

    expect(listed.status).toBe(200);
    expect(missing.status).toBe(404);
    for (const res of [listed, missing])
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(log.text).toContain('/threads?limit=5');
    expect(log.text).not.toContain('supersecret-123');
  });
});
