import { startEmulator, type Emulator } from '@repo/llm-emulator';
import { WebhookReceiver } from '@repo/webhooks/receiver';
import { HUMAN_REQUEST, INVOICE_QUESTION, OUTAGE_QUESTION } from './support/harness.js';
import {
  buildService,
  dropSchema,
  startService,
  TEST_DATABASE_URL,
  testSchema,
  waitUntilReady,
  type ServiceProcess,
} from './support/service-process.js';

interface ListedDelivery {
  id: string;
  type: string;
  status: string;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
}

const schema = testSchema('hd_webhooks');
let emulator: Emulator;
let receiver: WebhookReceiver;
const running: ServiceProcess[] = [];

/** A service process sending every event to the receiver; PostgreSQL unless `memory`. */
async function instance(options: { memory?: boolean; env?: Record<string, string> } = {}) {
  const service = await startService({
    AGENT_LLM_BASE_URL: emulator.url,
    ...(options.memory
      ? {}
      : { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema, PG_POOL_MAX: '6' }),
    WEBHOOK_ENDPOINTS: JSON.stringify([
      // The turn's own events; the operator queue's have their own suite (operator-cluster).
      {
        name: 'receiver',
        url: receiver.url,
        secret: receiver.secret,
        events: ['ticket.created', 'turn.failed'],
      },
    ]),
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_RETRY_BASE_MS: '200',
    WEBHOOK_TIMEOUT_MS: '2000',
    ...options.env,
  });
  running.push(service);
  await waitUntilReady(service);
  return service;
}

async function deliveries(service: ServiceProcess, status?: string): Promise<ListedDelivery[]> {
  const res = await service.get(`/webhooks/deliveries${status ? `?status=${status}` : ''}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { deliveries: ListedDelivery[] }).deliveries;
}

async function until<T>(read: () => Promise<T>, test: (value: T) => boolean, what: string) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await read();
    if (test(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

/** The events of one session, as verified and received, in arrival order. */
const eventsOf = (sessionId: string) =>
  receiver.received.filter((hook) => hook.data['session_id'] === sessionId);

/** Nothing more arrives for a moment: what was received is all there is. */
const settle = () => new Promise((done) => setTimeout(done, 1_000));

beforeAll(async () => {
  await buildService();
  emulator = await startEmulator({ port: 0 });
  receiver = await WebhookReceiver.start();
}, 120_000);

afterEach(async () => {
  await Promise.all(running.splice(0).map((service) => service.kill()));
  emulator.faults.clear();
  receiver.script = [];
  receiver.fallback = 204;
});

afterAll(async () => {
  await receiver?.close();
  await emulator?.close();
  await dropSchema(schema);
});

describe('helpdesk webhooks, real service processes and a receiver verifying with standardwebhooks', () => {
  it('when a session escalates and then a turn fails (PostgreSQL), then ticket.created and turn.failed arrive once each, signed, in order', async () => {
    const service = await instance();
    const escalated = await service.chat('wh-life', HUMAN_REQUEST);
    expect(escalated.status).toBe(200);
    const { ticket_id } = (await escalated.json()) as { ticket_id: string };
    emulator.faults.add({ provider: 'any', count: 1, kind: 'status', status: 503 });
    expect((await service.chat('wh-life', INVOICE_QUESTION)).status).toBe(502);

    await receiver.until(() => eventsOf('wh-life').length === 2);
    await settle();
    const events = eventsOf('wh-life');
    expect(events.map((hook) => hook.type)).toEqual(['ticket.created', 'turn.failed']);
    expect(events[0]!.data).toEqual({
      ticket_id,
      session_id: 'wh-life',
      status: 'open',
      actor: 'anonymous',
      links: { session: '/sessions/wh-life' },
    });
    expect(events[1]!.data).toMatchObject({ session_id: 'wh-life', code: 'model_error' });
    expect(JSON.stringify(events)).not.toContain('manager');
    expect(new Set(events.map((hook) => hook.id)).size).toBe(2);
    expect(receiver.rejected).toBe(0);
  }, 120_000);

  it('when the same happens in memory mode, then the same events arrive once each, in order', async () => {
    const service = await instance({ memory: true });
    expect((await service.chat('wh-mem', HUMAN_REQUEST)).status).toBe(200);
    emulator.faults.add({ provider: 'any', count: 1, kind: 'status', status: 503 });
    expect((await service.chat('wh-mem', OUTAGE_QUESTION)).status).toBe(502);

    await receiver.until(() => eventsOf('wh-mem').length === 2);
    await settle();
    expect(eventsOf('wh-mem').map((hook) => hook.type)).toEqual(['ticket.created', 'turn.failed']);
  }, 120_000);

  it('when two instances serve escalations, then each event is delivered once', async () => {
    const [a, b] = [await instance(), await instance()];
    const before = receiver.received.length;
    const sessions = ['wh-two-1', 'wh-two-2', 'wh-two-3', 'wh-two-4'];
    await Promise.all(
      sessions.map(async (id, i) =>
        expect((await (i % 2 ? b : a).chat(id, HUMAN_REQUEST)).status).toBe(200),
      ),
    );

    await receiver.until(() => receiver.received.length >= before + 4);
    await settle();
    const fresh = receiver.received.slice(before);
    expect(fresh.map((hook) => hook.data['session_id']).sort()).toEqual(sessions);
    expect(new Set(receiver.requests).size).toBe(receiver.requests.length);
  }, 120_000);

  it('when the receiver answers 500, 500, then 200, then the event is delivered on the third attempt', async () => {
    const service = await instance();
    receiver.script = [500, 500, 200];
    const requestsBefore = receiver.requests.length;
    expect((await service.chat('wh-retry', HUMAN_REQUEST)).status).toBe(200);

    await receiver.until(() => eventsOf('wh-retry').length === 1);
    expect(eventsOf('wh-retry')[0]!.attempt).toBe(3);
    expect(receiver.requests.length - requestsBefore).toBe(3);
    const [listed] = await until(
      () => deliveries(service, 'delivered'),
      (list) => list.some((d) => d.attempts === 3),
      'the delivery to be listed as delivered',
    );
    expect(listed).toMatchObject({ type: 'ticket.created', attempts: 3, last_status: 200 });
  }, 120_000);

  it('when the receiver answers 410, then the delivery fails at once, and a retry through the API delivers it', async () => {
    const service = await instance();
    receiver.script = [410];
    const requestsBefore = receiver.requests.length;
    expect((await service.chat('wh-gone', HUMAN_REQUEST)).status).toBe(200);

    const [failed] = await until(
      () => deliveries(service, 'failed'),
      (list) => list.length > 0,
      'a failed delivery',
    );
    expect(failed).toMatchObject({ type: 'ticket.created', attempts: 1, last_status: 410 });
    await settle();
    expect(receiver.requests.length - requestsBefore).toBe(1);

    const retried = await service.post(`/webhooks/deliveries/${failed!.id}/retry`, {});
    expect(retried.status).toBe(202);
    await receiver.until(() => eventsOf('wh-gone').length === 1);
    expect(eventsOf('wh-gone')[0]!.id).toBe(failed!.id);
    expect((await service.post(`/webhooks/deliveries/${failed!.id}/retry`, {})).status).toBe(409);
  }, 120_000);

  it('when the receiver hangs, then chat requests still complete and the attempt times out, then succeeds', async () => {
    const service = await instance();
    receiver.fallback = 'hang';
    const requestsBefore = receiver.requests.length;
    expect((await service.chat('wh-hang-1', HUMAN_REQUEST)).status).toBe(200);
    await until(
      async () => receiver.requests.length,
      (n) => n > requestsBefore,
      'the first attempt to reach the hanging receiver',
    );

    // The receiver is holding the attempt open; the service answers regardless.
    for (const id of ['wh-hang-2', 'wh-hang-3']) {
      expect((await service.chat(id, OUTAGE_QUESTION)).status).toBe(200);
    }
    expect(eventsOf('wh-hang-1')).toHaveLength(0);

    receiver.fallback = 204;
    await receiver.until(() => eventsOf('wh-hang-1').length === 1);
    expect(eventsOf('wh-hang-1')[0]!.attempt).toBeGreaterThanOrEqual(2);
  }, 120_000);

  it('when the service is killed right after an escalation, then the event arrives after the restart, once', async () => {
    const first = await instance();
    receiver.fallback = 'hang';
    expect((await first.chat('wh-kill', HUMAN_REQUEST)).status).toBe(200);
    await first.kill();
    receiver.fallback = 204;

    await instance({ env: { WEBHOOK_TIMEOUT_MS: '2000' } });
    await receiver.until(() => eventsOf('wh-kill').length === 1, 60_000);
    await settle();
    expect(eventsOf('wh-kill')).toHaveLength(1);
  }, 120_000);

  it('when the target is on loopback and WEBHOOK_ALLOW_PRIVATE is not set, then nothing is sent and the delivery fails', async () => {
    const service = await instance({ memory: true, env: { WEBHOOK_ALLOW_PRIVATE: 'false' } });
    const requestsBefore = receiver.requests.length;
    expect((await service.chat('wh-private', HUMAN_REQUEST)).status).toBe(200);

    const [failed] = await until(
      () => deliveries(service, 'failed'),
      (list) => list.length > 0,
      'the refused delivery',
    );
    expect(failed!.last_error).toMatch(/127\.0\.0\.1.*loopback, private or link-local/);
    expect(receiver.requests.length).toBe(requestsBefore);
  }, 120_000);
});
