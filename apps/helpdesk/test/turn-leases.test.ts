import { startEmulator, type Emulator, type LoggedRequest } from '@repo/llm-emulator';
import pg from 'pg';
import {
  callerOf,
  INVOICE_QUESTION,
  startHelpdesk,
  textsIn,
  waitFor,
  type HelpdeskUnderTest,
} from './support/harness.js';
import {
  buildService,
  dropSchema,
  startService,
  TEST_DATABASE_URL,
  testSchema,
  waitUntilReady,
  type ServiceProcess,
} from './support/service-process.js';

const schema = testSchema('hd_leases');
const POOL_MAX = 2;
let emulator: Emulator;
let db: pg.Client;
const running: ServiceProcess[] = [];

async function instance(): Promise<ServiceProcess> {
  const service = await startService({
    AGENT_LLM_BASE_URL: emulator.url,
    DATABASE_URL: TEST_DATABASE_URL,
    DATABASE_SCHEMA: schema,
    PG_POOL_MAX: String(POOL_MAX),
  });
  running.push(service);
  await waitUntilReady(service);
  return service;
}

const geminiCalls = () => emulator.requests.list().filter((r) => r.provider === 'gemini');
const inFlight = () => geminiCalls().filter((r) => r.status === 0).length;

/** The number in "(question N)" of the newest message a model call was shown. */
const questionOf = (call: LoggedRequest) =>
  [...textsIn(call).matchAll(/question (\d+)/g)].at(-1)?.[1];

async function userTexts(service: ServiceProcess, sessionId: string): Promise<string[]> {
  const res = await service.get(`/sessions/${sessionId}`);
  expect(res.status).toBe(200);
  const { turns } = (await res.json()) as { turns: Array<{ role: string; text: string }> };
  return turns.filter((t) => t.role === 'user').map((t) => t.text);
}

beforeAll(async () => {
  await buildService();
  emulator = await startEmulator({ port: 0 });
  db = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await db.connect();
}, 120_000);

afterEach(async () => {
  await Promise.all(running.splice(0).map((service) => service.kill()));
  emulator.faults.clear();
  emulator.setLatency(0);
  emulator.requests.clear();
});

afterAll(async () => {
  await emulator?.close();
  await db?.end();
  await dropSchema(schema);
});

describe('turns coordinated by session leases, real service processes on one database', () => {
  it('when 5 × PG_POOL_MAX sessions are in a turn at once on one instance, then all their model calls are in flight together and every turn is answered', async () => {
    const service = await instance();
    const sessions = Array.from({ length: 5 * POOL_MAX }, (_, i) => `wide-${i}`);
    // Each turn's first model call is held 4 s: every turn is mid-model-call at the same time.
    emulator.faults.add({ kind: 'delay', delayMs: 4_000, count: sessions.length });

    const answers = Promise.all(sessions.map((id) => service.chat(id, INVOICE_QUESTION)));
    await waitFor(
      () => inFlight() === sessions.length,
      10_000,
      `${sessions.length} model calls in flight at once`,
    );
    const statuses = (await answers).map((res) => res.status);

    expect(statuses).toEqual(Array(sessions.length).fill(200));
    for (const id of sessions) expect(await userTexts(service, id)).toEqual([INVOICE_QUESTION]);
  }, 60_000);

  it('when two instances get messages of one session at once, then its turns run one at a time and the history is in the order they ran', async () => {
    const instances = [await instance(), await instance()];
    emulator.setLatency(20);
    const messages = Array.from(
      { length: 6 },
      (_, i) => `Please check invoice INV-100${(i % 5) + 1} (question ${i + 1})`,
    );

    const statuses = await Promise.all(
      messages.map(async (message, i) => (await instances[i % 2]!.chat('shared', message)).status),
    );

    expect(statuses).toEqual(Array(6).fill(200));
    // Serialized: the model calls come in whole turns of three, never mixed with another turn's.
    const calls = geminiCalls();
    expect(calls).toHaveLength(18);
    for (let turn = 0; turn < 6; turn += 1) {
      const own = calls.slice(turn * 3, turn * 3 + 3);
      expect(own.map((c) => callerOf(c))).toEqual(['coordinator', 'billing', 'billing']);
      expect(new Set(own.map(questionOf)).size).toBe(1);
    }
    const ranInOrder = calls.filter((_, i) => i % 3 === 0).map(questionOf);
    const stored = (await userTexts(instances[1]!, 'shared')).map(
      (text) => /question (\d+)/.exec(text)?.[1],
    );
    expect(stored).toEqual(ranInOrder);
    expect([...stored].sort()).toEqual(['1', '2', '3', '4', '5', '6']);
  }, 60_000);
});

describe('a turn whose lease passed to another turn', () => {
  let helpdesk: HelpdeskUnderTest;

  beforeAll(async () => {
    helpdesk = await startHelpdesk({
      database: { connectionString: TEST_DATABASE_URL, schema, poolMax: POOL_MAX },
    });
  });
  afterAll(() => helpdesk?.close());

  it('when the lease changed owner while the model ran, then the turn is refused with 429 session_busy and writes nothing', async () => {
    await helpdesk.send('fenced', INVOICE_QUESTION).expect(200);
    helpdesk.emulator.faults.add({ kind: 'delay', delayMs: 1_500 });
    const late = helpdesk.send('fenced', 'Is the API down? (the late turn)').then((res) => res);
    await waitFor(() => helpdesk.pendingModelCalls() === 1, 5_000, 'the turn to reach the model');

    // What another instance does once this turn's lease has expired: it takes the lease over.
    const taken = await db.query(
      `UPDATE "${schema}".helpdesk_session_leases SET owner = gen_random_uuid() WHERE session_id = 'fenced'`,
    );
    expect(taken.rowCount).toBe(1);
    const res = await late;

    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ code: 'session_busy', session_id: 'fenced' });
    const history = await helpdesk.http.get('/sessions/fenced').expect(200);
    expect((history.body.turns as Array<{ text: string }>).map((t) => t.text)).not.toContain(
      'Is the API down? (the late turn)',
    );
    expect(history.body.turns).toHaveLength(2);
  }, 30_000);
});
