import type { Task } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { clientFor, dataOf, message } from './support/a2a-client.js';
import {
  callerOf,
  INVOICE_QUESTION,
  OUTAGE_QUESTION,
  startHelpdesk,
  textsIn,
  type HelpdeskUnderTest,
} from './support/harness.js';
import { dropSchema, TEST_DATABASE_URL, testSchema } from './support/service-process.js';

const schema = testSchema('hd_a2a');

/** Two instances on one database, as behind a load balancer; both call one emulator. */
describe('A2A contexts as PostgreSQL sessions, two instances', () => {
  let first: HelpdeskUnderTest;
  let second: HelpdeskUnderTest;
  let clients: [Client, Client];

  beforeAll(async () => {
    const database = { connectionString: TEST_DATABASE_URL, schema, poolMax: 3 };
    first = await startHelpdesk({ database });
    second = await startHelpdesk({ database, model: { baseUrl: first.emulator.url } });
    clients = [await clientFor(await first.url()), await clientFor(await second.url())];
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await dropSchema(schema);
  });
  beforeEach(() => first.emulator.requests.clear());

  it('when a context continues on the other instance, then its turn sees the first and the session holds both', async () => {
    const contextId = 'a2a-pg-continue';
    await clients[0].sendMessage(message(INVOICE_QUESTION, contextId));
    first.emulator.requests.clear();

    const answer = (await clients[1].sendMessage(message(OUTAGE_QUESTION, contextId))) as Task;

    expect(answer.status.state).toBe('completed');
    expect(dataOf(answer.status.message?.parts)[0]).toMatchObject({ agent: 'technical' });
    const prompts = first.modelCalls().map(textsIn);
    expect(prompts.length).toBeGreaterThan(0);
    for (const prompt of prompts) expect(prompt).toContain(INVOICE_QUESTION);
    const session = await first.http.get(`/sessions/${contextId}`).expect(200);
    expect(session.body.turns.map((t: { agent: string | null }) => t.agent)).toEqual([
      null,
      'billing',
      null,
      'technical',
    ]);
  });

  it('when both instances get messages of one context at once, then its turns run one at a time', async () => {
    const contextId = 'a2a-pg-together';
    first.emulator.setLatency(20);
    const texts = Array.from(
      { length: 4 },
      (_, i) => `Please check invoice INV-100${i + 1} (question ${i + 1})`,
    );

    const answers = (await Promise.all(
      texts.map((text, i) => clients[i % 2]!.sendMessage(message(text, contextId))),
    )) as Task[];
    first.emulator.setLatency(0);

    expect(answers.map((a) => a.status.state)).toEqual(Array(4).fill('completed'));
    // Serialized: the model calls come in whole turns (coordinator, billing, billing).
    const callers = first.modelCalls().map(callerOf);
    expect(callers).toHaveLength(12);
    for (let turn = 0; turn < 4; turn += 1) {
      expect(callers.slice(turn * 3, turn * 3 + 3)).toEqual(['coordinator', 'billing', 'billing']);
    }
    const session = await second.http.get(`/sessions/${contextId}`).expect(200);
    expect(session.body.turns).toHaveLength(8);
  });
});
