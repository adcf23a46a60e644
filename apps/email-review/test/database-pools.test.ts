import { startEmulator, type Emulator } from '@repo/llm-emulator';
import request from 'supertest';
import { dropSchema, freshSchema, postgresTestsEnabled } from './support/database.js';
import { BILLING_EMAIL, OUTAGE_EMAIL } from './support/emails.js';
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

  test('when every lock connection is busy, then a change is refused with 503 instead of waiting', async () => {
    instance = await startInstance({
      mode: 'postgres',
      emulator,
      schema,
      poolMax: 1,
      lockWaitMs: 200,
    });
    const create = async (inbound: string): Promise<string> =>
      (await request(instance!.app).post('/threads').send({ inbound }).expect(201)).body.thread_id;
    const held = await create(BILLING_EMAIL);
    const other = await create(OUTAGE_EMAIL);
    // The held approve keeps the only lock connection while it waits after its commit.
    const hold = instance.gate.holdNext();
    const first = request(instance.app)
      .post(`/threads/${held}/approve`)
      .then((res) => res);
    await hold.entered;

    const refused = await within(
      5_000,
      'the refused approve',
      request(instance.app)
        .post(`/threads/${other}/approve`)
        .then((res) => res),
    );
    hold.release();

    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ code: 'locks_unavailable', thread_id: other });
    expect(refused.headers['retry-after']).toBe('1');
    expect((await first).status).toBe(200);
    const after = await request(instance.app).get(`/threads/${other}`);
    expect(after.body.status).toBe('awaiting_review');
    await request(instance.app).post(`/threads/${other}/approve`).expect(200);
  });
});
