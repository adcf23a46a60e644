import { startEmulator, type Emulator } from '@repo/llm-emulator';
import { createLogger } from '@repo/http-kit';
import { openPools } from '@repo/pg-kit';
import request from 'supertest';
import {
  dropSchema,
  freshSchema,
  postgresTestsEnabled,
  TEST_DATABASE_URL,
} from './support/database.js';
import { BILLING_EMAIL } from './support/emails.js';
import { startInstance, type Instance } from './support/harness.js';

const withPostgres = await postgresTestsEnabled();
const describePg = withPostgres ? describe : describe.skip;

/** Fails instead of hanging when `promise` does not settle in time. */
function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

describePg('database pools', () => {
  const schema = freshSchema('pools');
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
    await dropSchema(schema);
  });

  test('when the pools hold one connection each, then start-up on a new schema completes and a thread goes through', async () => {
    instance = await within(
      10_000,
      'start-up',
      startInstance({ mode: 'postgres', emulator, schema, poolMax: 1 }),
    );

    const { thread_id } = (
      await request(instance.app).post('/threads').send({ inbound: BILLING_EMAIL }).expect(201)
    ).body;
    await request(instance.app).post(`/threads/${thread_id}/approve`).expect(200);
  });

  test('when one pooled connection is checked out again and again, then its queries go through the one guard it got the first time', async () => {
    // pg-pool hands out the same client object each time: a guard added per checkout would stack
    // (a long-running instance got slower with every transaction it had run).
    const { pool, end } = openPools({
      connectionString: TEST_DATABASE_URL,
      query: { max: 1 },
      locks: { max: 1 },
      logger: createLogger({ name: 'pools-test', level: 'silent' }),
    });
    try {
      const queries = new Set<unknown>();
      for (let i = 0; i < 200; i += 1) {
        const client = await pool.connect();
        queries.add(client.query);
        const { rows } = await client.query<{ n: number }>('SELECT $1::int AS n', [i]);
        expect(rows[0]!.n).toBe(i);
        client.release();
      }
      expect(queries.size).toBe(1);
    } finally {
      await end();
    }
  });
});
