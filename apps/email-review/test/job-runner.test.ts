import { startEmulator, type Emulator } from '@repo/llm-emulator';
import { default as RealPgBoss } from 'pg-boss';
import request from 'supertest';
import { dropSchema, freshSchema, postgresTestsEnabled, until } from './support/database.js';
import { BILLING_EMAIL } from './support/emails.js';

const withPostgres = await postgresTestsEnabled();
const describePg = withPostgres ? describe : describe.skip;

/** Jest's ESM module mocks (in its runtime, not in @types/jest). */
const { unstable_mockModule } = (import.meta as unknown as { jest: ModuleMocks }).jest;
interface ModuleMocks {
  unstable_mockModule(name: string, factory: () => unknown): void;
}

/** Every PgBoss this process constructs, counted (the app's modules are imported after this). */
let constructed = 0;
unstable_mockModule('pg-boss', () => ({
  default: class CountedPgBoss extends RealPgBoss {
    constructor(...args: ConstructorParameters<typeof RealPgBoss>) {
      super(...args);
      constructed += 1;
    }
  },
}));
const { startInstance } = await import('./support/harness.js');

/** pg-boss's README: one instance per process, many queues. */
describePg('one job runner per process', () => {
  const schema = freshSchema('runner');
  let emulator: Emulator;

  beforeAll(async () => {
    emulator = await startEmulator();
  });
  afterAll(async () => {
    await emulator?.close();
    await dropSchema(schema);
  });

  test('when every queue works (model work, deliveries, retention), then the process has constructed one PgBoss', async () => {
    const instance = await startInstance({
      mode: 'postgres',
      emulator,
      schema,
      retention: { days: 30 },
    });
    try {
      await instance.retention.start();
      const created = await request(instance.app)
        .post('/threads')
        .send({ inbound: BILLING_EMAIL, from: 'ann@example.com' })
        .expect(201);
      await request(instance.app).post(`/threads/${created.body.thread_id}/approve`).expect(200);
      await until(() => instance.transport.delivered.length === 1, 'the delivery');
      expect(await instance.retention.runOnce()).toBe(0);

      expect(constructed).toBe(1);
    } finally {
      await instance.close();
    }
  });
});
