import { startEmulator, type Emulator } from '@repo/llm-emulator';
import request from 'supertest';
import { dropSchema, freshSchema, postgresTestsEnabled } from './support/database.js';
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
});
