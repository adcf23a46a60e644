import { startEmulator, type Emulator } from '@repo/llm-emulator';
import { WebhookReceiver } from '@repo/webhooks/receiver';
import {
  BROWSER_TEST_TIMEOUT_MS,
  describeInBrowser,
  launchBrowser,
  openPage,
  sendMessage,
  answersDone,
  type Browser,
} from './support/chat-page-browser.js';
import { openLiveEvents, type LiveEvents } from './support/live-events.js';
import { freePort } from './support/own-cluster.js';
import {
  buildService,
  dropSchema,
  startService,
  TEST_DATABASE_URL,
  testSchema,
  waitUntilReady,
  type ServiceProcess,
} from './support/service-process.js';

const ALICE = 'alice-operator-token-0123';
const operator = { authorization: `Bearer ${ALICE}` };
const schema = testSchema('hd_operator_cluster');
let emulator: Emulator;
let receiver: WebhookReceiver;
let browser: Browser;
const running: ServiceProcess[] = [];
const streams: LiveEvents[] = [];

/** One instance on the shared database, every webhook to the receiver. */
async function instance(env: Record<string, string> = {}) {
  const service = await startService({
    AGENT_LLM_BASE_URL: emulator.url,
    DATABASE_URL: TEST_DATABASE_URL,
    DATABASE_SCHEMA: schema,
    PG_POOL_MAX: '4',
    API_TOKENS: `alice:${ALICE}`,
    OPERATORS: 'alice',
    WIDGET_PUBLIC: 'true',
    WEBHOOK_ENDPOINTS: JSON.stringify([
      { name: 'receiver', url: receiver.url, secret: receiver.secret, events: ['*'] },
    ]),
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_RETRY_BASE_MS: '200',
    ...env,
  });
  running.push(service);
  await waitUntilReady(service);
  return service;
}

async function post(service: ServiceProcess, path: string, body: unknown, headers = {}) {
  return fetch(`${service.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

async function widgetSession(service: ServiceProcess) {
  const res = await post(service, '/widget/sessions', {});
  expect(res.status).toBe(201);
  return (await res.json()) as { session_id: string; widget_token: string };
}

beforeAll(async () => {
  await buildService();
  emulator = await startEmulator({ port: 0 });
  receiver = await WebhookReceiver.start();
  browser = await launchBrowser();
}, 120_000);

afterEach(async () => {
  streams.splice(0).forEach((stream) => stream.close());
  await Promise.all(running.splice(0).map((service) => service.kill()));
});

afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await emulator?.close();
  await dropSchema(schema);
}, 60_000);

describeInBrowser('operator takeover on two instances of one database', () => {
  test(
    'when the customer is on A and the operator on B, and A is killed during the takeover, then the customer page reconnects and every message is there once; the webhooks arrive signed, in order',
    async () => {
      // A comes back on its port after its SIGKILL, as behind a balancer.
      const portA = await freePort();
      let a = await instance({ PORT: String(portA) });
      const b = await instance();
      const { page: customer, trouble } = await openPage(browser, `${a.url}/`);
      const { page: console } = await openPage(browser, `${b.url}/console/`);
      await console.locator('#token-input').fill(ALICE);
      await console.locator('#token-input').press('Enter');
      await console.locator('#live-status', { hasText: 'Live' }).waitFor();

      await sendMessage(customer, 'I want to talk to a person');
      await answersDone(customer, 1);
      await console.locator('.queue-item').first().waitFor({ timeout: 2_000 });
      await console.locator('.queue-item button').first().click();
      await console.locator('#take-over').click();
      await customer.locator('#answering', { hasText: 'alice (a person)' }).waitFor();

      await sendMessage(customer, 'Customer message one');
      await console.locator('.message.user .text', { hasText: 'Customer message one' }).waitFor();
      await console.locator('#reply').fill('Operator message one');
      await console.locator('#reply').press('Enter');
      await customer
        .locator('.message.operator .text', { hasText: 'Operator message one' })
        .waitFor();

      // A dies holding the customer's stream; the operator writes on while it is away.
      await a.kill();
      for (const text of ['Operator message two', 'Operator message three']) {
        await console.locator('#reply').fill(text);
        await console.locator('#reply').press('Enter');
        await console.locator('.message.operator .text', { hasText: text }).waitFor();
      }
      a = await instance({ PORT: String(portA) });
      await customer
        .locator('.message.operator .text', { hasText: 'Operator message three' })
        .waitFor({ timeout: 20_000 });
      await sendMessage(customer, 'Customer message two');
      await console.locator('.message.user .text', { hasText: 'Customer message two' }).waitFor();
      await console.locator('#hand-back').click();
      await customer.locator('.message.notice', { hasText: 'answering again' }).waitFor();
      // A moment for anything sent twice to show twice.
      await new Promise((done) => setTimeout(done, 1_000));

      const texts = async (page: typeof customer, selector: string) =>
        page.locator(selector).allTextContents();
      expect(await texts(customer, '.message.operator .text')).toEqual([
        'Operator message one',
        'Operator message two',
        'Operator message three',
      ]);
      expect(await texts(customer, '.message.user .text')).toEqual([
        'I want to talk to a person',
        'Customer message one',
        'Customer message two',
      ]);
      expect(await texts(console, '.message.operator .text')).toEqual([
        'Operator message one',
        'Operator message two',
        'Operator message three',
      ]);
      expect(await texts(console, '.message.user .text')).toEqual([
        'I want to talk to a person',
        'Customer message one',
        'Customer message two',
      ]);
      expect(trouble.pageErrors).toEqual([]);

      const sessionId = await customer.evaluate<string>(
        'localStorage.getItem("helpdesk.session-id") ?? ""',
      );
      const ofSession = () =>
        receiver.received.filter((hook) => hook.data['session_id'] === sessionId);
      await receiver.until(() => ofSession().length >= 4);
      const hooks = ofSession();
      expect(hooks.map((hook) => hook.type)).toEqual([
        'ticket.created',
        'conversation.handoff_requested',
        'conversation.taken_over',
        'conversation.handed_back',
      ]);
      expect(hooks[2]!.data).toMatchObject({ operator: 'alice', actor: 'alice' });
      expect(receiver.rejected).toBe(0);
    },
    BROWSER_TEST_TIMEOUT_MS * 2,
  );
});

describe('the wait for a person', () => {
  test('when nobody takes the conversation over in time, then the customer is told once, the ticket stays, and it stays in the queue', async () => {
    const a = await instance({ HANDOFF_WAIT_SECONDS: '1' });
    const b = await instance({ HANDOFF_WAIT_SECONDS: '1' });
    const widget = await widgetSession(a);
    const asked = await post(
      a,
      '/chat',
      { session_id: widget.session_id, message: 'I want to talk to a person' },
      { 'x-widget-token': widget.widget_token },
    );
    const { ticket_id: ticketId } = (await asked.json()) as { ticket_id: string };
    const stream = await openLiveEvents(`${a.url}/sessions/${widget.session_id}/events?after=0`, {
      'x-widget-token': widget.widget_token,
    });
    streams.push(stream);
    const [told] = await stream.next('wait_timeout', 1, 15_000);
    expect(told!.data['text']).toContain(`Your ticket ${ticketId} stays open`);
    // Both instances check; one claims it: told once.
    await new Promise((done) => setTimeout(done, 1_500));
    expect(stream.events.filter((event) => event.event === 'wait_timeout')).toHaveLength(1);
    const queue = await fetch(`${b.url}/operator/conversations`, { headers: operator });
    const { conversations } = (await queue.json()) as {
      conversations: Array<{ session_id: string; state: string; wait_notified_at: string | null }>;
    };
    expect(conversations.find((c) => c.session_id === widget.session_id)).toMatchObject({
      state: 'waiting',
      wait_notified_at: expect.any(String),
    });
  }, 90_000);
});

describe('shutting down with live streams open', () => {
  test('when an instance with open live streams gets SIGTERM, then it ends them at once and exits, not after the drain timeout', async () => {
    const a = await instance();
    const widget = await widgetSession(a);
    const customer = await openLiveEvents(`${a.url}/sessions/${widget.session_id}/events`, {
      'x-widget-token': widget.widget_token,
    });
    const console = await openLiveEvents(`${a.url}/operator/events`, operator);
    streams.push(customer, console);
    await customer.next('state');

    const started = Date.now();
    await a.stop();
    await Promise.all([customer.ended, console.ended]);

    // http-kit's drain waits 10 s for responses that do not end by themselves.
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(a.child.exitCode).toBe(0);
  }, 60_000);
});
