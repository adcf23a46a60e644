import { startEmulator, type Emulator } from '@repo/llm-emulator';
import request from 'supertest';
import type { ThreadStore } from '../src/threads/thread-store.js';
import { dropSchema, freshSchema, testModes } from './support/database.js';
import { BILLING_EMAIL } from './support/emails.js';
import { startInstance, type Instance } from './support/harness.js';

const modes = await testModes();

/** The classifier's answer, as the model's JSON text (escapes such as \ud800 pass through verbatim). */
function classificationText(summaryJson: string): string {
  return `{"category":"billing","urgency":"high","summary":${summaryJson}}`;
}

/** Refuses the next save of a reviewable view, as a database refusing a step's result would. */
class RefusingStore {
  refuseNext = false;

  wrap(store: ThreadStore): ThreadStore {
    const saveDecision = store.saveDecision.bind(store);
    // A model job's result is written by compare-and-set from `drafting`.
    store.saveDecision = async (tx, change) => {
      if (
        this.refuseNext &&
        change.view.status === 'awaiting_review' &&
        change.from === 'drafting'
      ) {
        this.refuseNext = false;
        throw new Error('invalid input syntax for type json');
      }
      return saveDecision(tx, change);
    };
    return store;
  }
}

describe.each(modes)('odd model output (%s)', (mode) => {
  const schema = freshSchema('odd');
  const refusing = new RefusingStore();
  let emulator: Emulator;
  let instance: Instance;

  beforeAll(async () => {
    emulator = await startEmulator();
    instance = await startInstance({
      mode,
      emulator,
      schema,
      wrapThreads: (threads) => refusing.wrap(threads),
    });
  });
  beforeEach(() => emulator.faults.clear());
  afterAll(async () => {
    await instance?.close();
    await emulator?.close();
    if (mode === 'postgres') await dropSchema(schema);
  });

  test('when the classification summary is 250 emoji, then create answers 201 and stores and shows it cut to 200 code points, no half emoji', async () => {
    emulator.faults.add({
      provider: 'openai',
      kind: 'content',
      content: classificationText(JSON.stringify('😀'.repeat(250))),
    });

    const res = await request(instance.app).post('/threads').send({ inbound: BILLING_EMAIL });

    expect(res.status).toBe(201);
    const summary = res.body.classification.summary as string;
    expect(Array.from(summary)).toHaveLength(200);
    expect(summary).toBe(`${'😀'.repeat(199)}…`);
    const shown = await request(instance.app).get(`/threads/${res.body.thread_id}`).expect(200);
    expect(shown.body.classification.summary).toBe(summary);
    expect(shown.body.status).toBe('awaiting_review');
  });

  test('when the summary and the draft hold lone surrogates and NUL, then create answers 201 with them dropped', async () => {
    emulator.faults.add({
      provider: 'openai',
      kind: 'content',
      content: classificationText('"Refund \\ud800the \\u0000double charge\\udfff"'),
    });
    emulator.faults.add({
      provider: 'openai',
      kind: 'content',
      content: 'Dear Ann,\ud83d we will refund\u0000 you.\udc00',
    });

    const res = await request(instance.app).post('/threads').send({ inbound: BILLING_EMAIL });

    expect(res.status).toBe(201);
    expect(res.body.classification.summary).toBe('Refund the double charge');
    expect(res.body.draft).toBe('Dear Ann, we will refund you.');
    const shown = await request(instance.app).get(`/threads/${res.body.thread_id}`).expect(200);
    expect(shown.body).toMatchObject({
      status: 'awaiting_review',
      draft: 'Dear Ann, we will refund you.',
    });
  });

  test("when a step's result cannot be stored, then the create answers 500 with the thread id, the thread is failed with a code, and retry finishes it", async () => {
    refusing.refuseNext = true;

    const res = await request(instance.app).post('/threads').send({ inbound: BILLING_EMAIL });

    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ code: 'internal_error', thread_id: expect.any(String) });
    const stored = await request(instance.app).get(`/threads/${res.body.thread_id}`).expect(200);
    expect(stored.body).toMatchObject({ status: 'failed', error: { code: 'internal_error' } });
    const retried = await request(instance.app).post(`/threads/${res.body.thread_id}/retry`);
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ status: 'awaiting_review', draft: expect.any(String) });
  });
});
