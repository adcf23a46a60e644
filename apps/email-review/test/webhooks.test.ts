import { startEmulator, type Emulator } from '@repo/llm-emulator';
import { WebhookReceiver, type ReceivedWebhook } from '@repo/webhooks/receiver';
import {
  dropSchema,
  freshSchema,
  postgresTestsEnabled,
  TEST_DATABASE_URL,
  until,
} from './support/database.js';
import { ALWAYS_500, PASS_ONE } from './support/emulator-faults.js';
import { startServer, type ServerProcess } from './support/server-process.js';
import { SmtpSink } from './support/smtp-sink.js';

/**
 * email-review's webhooks from real service processes (PostgreSQL mode) to a real receiver on
 * loopback that verifies every delivery with the standardwebhooks package.
 */
const withPostgres = await postgresTestsEnabled();
const runIt = withPostgres ? it : it.skip;

const schema = freshSchema('webhooks');
let emulator: Emulator;
let sink: SmtpSink;
let receiver: WebhookReceiver;
const servers: ServerProcess[] = [];

function env(extra: Record<string, string> = {}, memory = false) {
  return {
    LLM_A_API_KEY: 'test-key',
    LLM_A_BASE_URL: `${emulator.url}/v1`,
    LLM_A_MAX_RETRIES: '0',
    ...(memory
      ? {}
      : { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema, PG_POOL_MAX: '10' }),
    SMTP_URL: sink.url,
    MAIL_FROM: 'Support <support@shop.test>',
    SMTP_TIMEOUT_MS: '2000',
    DELIVERY_RETRY_DELAY_SECONDS: '1',
    DELIVERY_RETRY_BACKOFF: 'false',
    // A delivery job taken by an instance that is then killed is handed out again after this
    // (the default, 120 s, is longer than the kill test waits for the delivery's event).
    DELIVERY_LEASE_SECONDS: '10',
    WEBHOOK_ENDPOINTS: JSON.stringify([
      { name: 'receiver', url: receiver.url, secret: receiver.secret, events: ['*'] },
    ]),
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_RETRY_BASE_MS: '200',
    WEBHOOK_TIMEOUT_MS: '2000',
    LOG_LEVEL: 'info',
    ...extra,
  };
}

async function start(extra: Record<string, string> = {}, memory = false): Promise<string> {
  const started = await startServer(env(extra, memory));
  servers.push(started.process);
  return started.url;
}

/** `route`: the method and the path, e.g. `POST /threads`. */
async function call(base: string, route: string, body?: unknown, ifMatch?: number) {
  const [method, path] = route.split(' ') as [string, string];
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(ifMatch === undefined ? {} : { 'if-match': `"${ifMatch}"` }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return {
    status: res.status,
    body: (await res.json()) as { thread_id: string; revision: number; status: string },
  };
}

const createThread = async (base: string, from: string, n: number) => {
  const created = await call(base, 'POST /threads', {
    inbound: `Please refund the double charge on invoice INV-${n}.`,
    from,
    subject: `Refund ${n}`,
  });
  expect([created.status, created.body.status]).toEqual([201, 'awaiting_review']);
  return created.body;
};

const of = (threadId: string): ReceivedWebhook[] =>
  receiver.received.filter((hook) => hook.data['thread_id'] === threadId);
const typesOf = (threadId: string) => of(threadId).map((hook) => hook.type);
/** Nothing more arrives for a moment: what was received is all there is. */
const settle = () => new Promise((done) => setTimeout(done, 1_000));

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  sink = await SmtpSink.start();
  receiver = await WebhookReceiver.start();
}, 60_000);

afterEach(async () => {
  for (const server of servers.splice(0)) {
    if (server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGTERM');
    }
    await server.exited;
  }
  emulator.faults.clear();
  sink.rule = () => undefined;
  receiver.fallback = 204;
});

afterAll(async () => {
  await receiver?.close();
  await sink?.stop();
  await emulator?.close();
  if (withPostgres) await dropSchema(schema);
});

describe('email-review webhooks, real processes and a receiver verifying with standardwebhooks', () => {
  runIt(
    'when threads go through draft, redraft, approve and delivery, reject, a model failure and a refused delivery, then each event type arrives once, signed, in order per thread',
    async () => {
      const base = await start();
      const approved = await createThread(base, 'ann@example.com', 1);
      const redrafted = await call(
        base,
        `POST /threads/${approved.thread_id}/edit`,
        { instructions: 'Shorter, please.' },
        approved.revision,
      );
      expect(redrafted.status).toBe(200);
      const approval = await call(
        base,
        `POST /threads/${approved.thread_id}/approve`,
        {},
        redrafted.body.revision,
      );
      expect(approval.status).toBe(200);

      const rejected = await createThread(base, 'bob@example.com', 2);
      expect(
        (await call(base, `POST /threads/${rejected.thread_id}/reject`, {}, rejected.revision))
          .status,
      ).toBe(200);

      sink.rule = (address) =>
        address === 'nobody@example.com' ? { code: 550, message: 'No such user' } : undefined;
      const bounced = await createThread(base, 'nobody@example.com', 3);
      expect(
        (await call(base, `POST /threads/${bounced.thread_id}/approve`, {}, bounced.revision))
          .status,
      ).toBe(200);

      emulator.faults.add(PASS_ONE);
      emulator.faults.add(ALWAYS_500);
      const failed = await call(base, 'POST /threads', { inbound: 'Where is my parcel?' });
      expect(failed.status).toBe(502);
      const failedId = failed.body.thread_id;
      emulator.faults.clear();

      await receiver.until(
        () =>
          of(approved.thread_id).length === 4 &&
          of(rejected.thread_id).length === 2 &&
          of(bounced.thread_id).length === 3 &&
          of(failedId).length === 1,
        30_000,
      );
      await settle();
      expect(typesOf(approved.thread_id)).toEqual([
        'thread.awaiting_review',
        'thread.awaiting_review',
        'thread.approved',
        'delivery.delivered',
      ]);
      expect(typesOf(rejected.thread_id)).toEqual(['thread.awaiting_review', 'thread.rejected']);
      expect(typesOf(bounced.thread_id)).toEqual([
        'thread.awaiting_review',
        'thread.approved',
        'delivery.failed',
      ]);
      expect(typesOf(failedId)).toEqual(['thread.failed']);

      const [first, second, approvedHook, delivered] = of(approved.thread_id);
      expect(first!.data).toEqual({
        thread_id: approved.thread_id,
        status: 'awaiting_review',
        revision: approved.revision,
        actor: 'model',
        links: {
          thread: `/threads/${approved.thread_id}`,
          history: `/threads/${approved.thread_id}/history`,
        },
      });
      expect(second!.data).toMatchObject({ revision: redrafted.body.revision });
      expect(approvedHook!.data).toMatchObject({
        status: 'sent',
        revision: redrafted.body.revision,
        actor: 'anonymous',
        delivery: 'queued',
      });
      expect(delivered!.data).toMatchObject({
        actor: 'system',
        delivery: { status: 'delivered', attempts: 1, last_error: null },
      });
      expect(of(failedId)[0]!.data).toMatchObject({ status: 'failed', code: 'llm_unavailable' });
      // No email text, draft or address rides along (WEBHOOK_INCLUDE_CONTENT is off).
      expect(JSON.stringify(receiver.received)).not.toMatch(/refund|parcel|@example\.com/i);
      expect(new Set(receiver.received.map((hook) => hook.id)).size).toBe(receiver.received.length);
      expect(receiver.rejected).toBe(0);
    },
    120_000,
  );

  runIt(
    'when the receiver hangs, then approvals still answer while it hangs, and the attempt times out and is retried',
    async () => {
      const base = await start();
      const threads = [
        await createThread(base, 'hang1@example.com', 11),
        await createThread(base, 'hang2@example.com', 12),
      ];
      await receiver.until(() => threads.every((t) => of(t.thread_id).length === 1));
      receiver.fallback = 'hang';
      const requestsBefore = receiver.requests.length;
      expect(
        (await call(base, `POST /threads/${threads[0]!.thread_id}/approve`, {}, 1)).status,
      ).toBe(200);
      await until(
        () => receiver.requests.length > requestsBefore,
        'an attempt to reach the receiver',
      );

      // The receiver holds that attempt open; the next approval answers all the same.
      expect(
        (await call(base, `POST /threads/${threads[1]!.thread_id}/approve`, {}, 1)).status,
      ).toBe(200);
      expect(of(threads[0]!.thread_id)).toHaveLength(1);

      receiver.fallback = 204;
      await receiver.until(() =>
        threads.every((t) => typesOf(t.thread_id).includes('delivery.delivered')),
      );
      const approvedHook = of(threads[0]!.thread_id).find((h) => h.type === 'thread.approved')!;
      expect(approvedHook.attempt).toBeGreaterThanOrEqual(2);
    },
    120_000,
  );

  runIt(
    'when the service is killed right after an approve, then the event arrives after the restart, once',
    async () => {
      const first = await start();
      const thread = await createThread(first, 'kill@example.com', 21);
      await receiver.until(() => of(thread.thread_id).length === 1);
      receiver.fallback = 'hang';
      expect(
        (await call(first, `POST /threads/${thread.thread_id}/approve`, {}, thread.revision))
          .status,
      ).toBe(200);
      servers[0]!.child.kill('SIGKILL');
      await servers[0]!.exited;
      receiver.fallback = 204;

      await start();
      await receiver.until(() => typesOf(thread.thread_id).includes('delivery.delivered'), 60_000);
      await settle();
      expect(typesOf(thread.thread_id)).toEqual([
        'thread.awaiting_review',
        'thread.approved',
        'delivery.delivered',
      ]);
    },
    120_000,
  );

  runIt(
    'when two instances serve threads, then each event is delivered once',
    async () => {
      const [a, b] = [await start(), await start()];
      const requestsBefore = receiver.requests.length;
      const receivedBefore = receiver.received.length;
      const threads = await Promise.all(
        [0, 1, 2, 3, 4, 5].map((n) => createThread(n % 2 ? b : a, `two${n}@example.com`, 30 + n)),
      );
      await Promise.all(
        threads.map(async (thread, n) =>
          expect(
            (await call(n % 2 ? a : b, `POST /threads/${thread.thread_id}/approve`, {}, 1)).status,
          ).toBe(200),
        ),
      );
      await receiver.until(() =>
        threads.every((t) => typesOf(t.thread_id).includes('delivery.delivered')),
      );
      await settle();
      for (const thread of threads) {
        expect(typesOf(thread.thread_id)).toEqual([
          'thread.awaiting_review',
          'thread.approved',
          'delivery.delivered',
        ]);
      }
      const fresh = receiver.requests.slice(requestsBefore);
      expect(new Set(fresh).size).toBe(fresh.length);
      expect(receiver.received.length - receivedBefore).toBe(18);
    },
    120_000,
  );

  it('when a thread is approved and delivered and another rejected in memory mode, then their events arrive once each, in order', async () => {
    const base = await start({}, true);
    const approved = await createThread(base, 'mem1@example.com', 41);
    const rejected = await createThread(base, 'mem2@example.com', 42);
    expect(
      (await call(base, `POST /threads/${approved.thread_id}/approve`, {}, approved.revision))
        .status,
    ).toBe(200);
    expect(
      (await call(base, `POST /threads/${rejected.thread_id}/reject`, {}, rejected.revision))
        .status,
    ).toBe(200);

    await receiver.until(
      () => of(approved.thread_id).length === 3 && of(rejected.thread_id).length === 2,
    );
    await settle();
    expect(typesOf(approved.thread_id)).toEqual([
      'thread.awaiting_review',
      'thread.approved',
      'delivery.delivered',
    ]);
    expect(typesOf(rejected.thread_id)).toEqual(['thread.awaiting_review', 'thread.rejected']);
  }, 60_000);

  it('when the target is on loopback and WEBHOOK_ALLOW_PRIVATE is not set, then nothing is sent and the delivery is listed as failed', async () => {
    const base = await start({ WEBHOOK_ALLOW_PRIVATE: 'false' }, true);
    const requestsBefore = receiver.requests.length;
    await createThread(base, 'private@example.com', 51);

    let failed: Array<{ type: string; last_error: string }> = [];
    await until(async () => {
      const res = await fetch(`${base}/webhooks/deliveries?status=failed`);
      failed = ((await res.json()) as { deliveries: typeof failed }).deliveries;
      return failed.length > 0;
    }, 'the refused delivery');
    expect(failed[0]).toMatchObject({ type: 'thread.awaiting_review' });
    expect(failed[0]!.last_error).toMatch(/127\.0\.0\.1.*loopback, private or link-local/);
    expect(receiver.requests.length).toBe(requestsBefore);
  }, 60_000);
});
