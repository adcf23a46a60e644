import { createLogger } from '@repo/http-kit';
import { startEmulator, type Emulator } from '@repo/llm-emulator';
import request from 'supertest';
import { createLogTransport } from '../src/delivery/mail-transport.js';
import { dropSchema, freshSchema, testModes, until } from './support/database.js';
import { BILLING_EMAIL } from './support/emails.js';
import { startInstance, type Instance } from './support/harness.js';

const modes = await testModes();

/** Without SMTP_URL the reply goes to the service's log: the delivery says so (`logged`), not `delivered`. */
describe.each(modes)('delivery to the log (%s)', (mode) => {
  const schema = freshSchema('logdelivery');
  const lines: string[] = [];
  let emulator: Emulator;
  let instance: Instance;

  beforeAll(async () => {
    emulator = await startEmulator();
    const logger = createLogger({
      name: 'log-delivery-test',
      level: 'info',
      destination: { write: (line: string) => void lines.push(line) },
    });
    instance = await startInstance({
      mode,
      emulator,
      schema,
      mailTransport: createLogTransport(logger),
    });
  });
  afterAll(async () => {
    await instance?.close();
    await emulator?.close();
    if (mode === 'postgres') await dropSchema(schema);
  });

  const viewed = async (id: string) => (await request(instance.app).get(`/threads/${id}`)).body;

  test('when a thread with a sender is approved, then its delivery ends `logged` to that address, with a `logged` event and a log line', async () => {
    const created = await request(instance.app)
      .post('/threads')
      .send({ inbound: BILLING_EMAIL, from: 'ann@example.com' })
      .expect(201);
    const id = created.body.thread_id as string;

    await request(instance.app).post(`/threads/${id}/approve`).expect(200);
    await until(async () => (await viewed(id)).delivery.status === 'logged', 'logged');

    expect((await viewed(id)).delivery).toMatchObject({
      status: 'logged',
      to: 'ann@example.com',
      attempts: 1,
      last_response: null,
      delivered_at: expect.any(String),
    });
    const history = (await request(instance.app).get(`/threads/${id}/history`)).body;
    expect(history.events.at(-1)).toMatchObject({ type: 'logged', actor: 'system' });
    expect(lines.some((line) => line.includes(id) && line.includes('delivered to the log'))).toBe(
      true,
    );
  });

  test('when a thread without a sender is approved with no body, then it is sent with delivery `no_recipient` and nothing is logged', async () => {
    const created = await request(instance.app)
      .post('/threads')
      .send({ inbound: BILLING_EMAIL })
      .expect(201);
    const id = created.body.thread_id as string;

    const approved = await request(instance.app).post(`/threads/${id}/approve`).expect(200);

    expect(approved.body).toMatchObject({ status: 'sent', delivery: { status: 'no_recipient' } });
    expect(lines.some((line) => line.includes(id) && line.includes('delivered to the log'))).toBe(
      false,
    );
  });
});
