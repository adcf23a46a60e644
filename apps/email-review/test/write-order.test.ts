import { startEmulator, type Emulator } from '@repo/llm-emulator';
import request from 'supertest';
import type { Thread } from '../src/threads/thread.js';
import type { ThreadStore } from '../src/threads/thread-store.js';
import { dropSchema, freshSchema, testModes, until } from './support/database.js';
import { BILLING_EMAIL } from './support/emails.js';
import { startInstance, type Instance } from './support/harness.js';
import { stateConfig } from '../src/operations/thread-service.js';

const modes = await testModes();

/** The thread index, except that saving a view `crashesOn` matches fails: the process "dies" there. */
function crashingIndex(threads: ThreadStore, crashesOn: (thread: Thread) => boolean): ThreadStore {
  const crash = (thread: Thread) => {
    if (crashesOn(thread)) throw new Error('simulated crash before the index write');
  };
  return {
    create: (...args) => threads.create(...args),
    get: (threadId) => threads.get(threadId),
    list: (query) => threads.list(query),
    history: threads.history,
    counts: () => threads.counts(),
    saveDecision: async (tx, change) => {
      crash(change.view);
      return threads.saveDecision(tx, change);
    },
  };
}

describe.each(modes)('checkpoint and index write order (%s)', (mode) => {
  const schema = freshSchema('order');
  const EDITED = 'Dear Ann, the duplicate payment is refunded.';
  let emulator: Emulator;
  let instance: Instance;
  let crashing = false;
  /** Fails the next save of a view showing `EDITED` once, then lets saves through (a refused write, not a crash). */
  let refuseOnce = false;

  beforeAll(async () => {
    emulator = await startEmulator();
    instance = await startInstance({
      mode,
      emulator,
      schema,
      wrapThreads: (threads) =>
        crashingIndex(threads, (thread) => {
          if (refuseOnce && thread.draft === EDITED) {
            refuseOnce = false;
            return true;
          }
          return crashing && thread.draft === EDITED;
        }),
    });
  });
  afterAll(async () => {
    await instance?.close();
    await emulator?.close();
    if (mode === 'postgres') await dropSchema(schema);
  });

  // The edit's view is written in one transaction with its checkpoint (a decision): a crash at the
  // view write leaves neither, where the order of two writes used to leave the checkpoint ahead.
  test('when a text edit crashes at its view write, then nothing of it is kept (checkpoint included), and approve sends the draft the reviewer was shown', async () => {
    const created = (
      await request(instance.app)
        .post('/threads')
        .send({ inbound: BILLING_EMAIL, from: 'ann@example.com' })
    ).body;
    crashing = true;
    const edit = await request(instance.app)
      .post(`/threads/${created.thread_id}/edit`)
      .send({ draft: EDITED });
    crashing = false;
    expect(edit.status).toBe(500);

    const shown = (await request(instance.app).get(`/threads/${created.thread_id}`)).body;
    expect(shown).toMatchObject({ status: 'awaiting_review', draft: created.draft, revision: 1 });
    const state = await instance.graph.getState(stateConfig(created.thread_id));
    expect(state.values).toMatchObject({ reply: created.draft, revision: 1 });
    const approved = await request(instance.app)
      .post(`/threads/${created.thread_id}/approve`)
      .send({ revision: 1 });

    expect(approved.body).toMatchObject({ status: 'sent', draft: created.draft });
    await until(() => instance.transport.delivered.length > 0, 'the delivery');
    expect(instance.transport.delivered.map((message) => message.body)).toEqual([created.draft]);
    const history = await request(instance.app).get(`/threads/${created.thread_id}/history`);
    expect(
      history.body.events
        .slice(0, 5)
        .map((event: { type: string; revision?: number }) =>
          [event.type, event.revision].filter((part) => part !== undefined).join(':'),
        ),
    ).toEqual(['created', 'classified', 'drafted:1', 'approved:1', 'queued']);
  });

  test('when an edit’s view write is refused once, then the edit answers 500 having changed nothing, and repeating it applies it as the reviewer’s edit', async () => {
    const created = (
      await request(instance.app)
        .post('/threads')
        .send({ inbound: BILLING_EMAIL, from: 'ann@example.com' })
    ).body;
    refuseOnce = true;
    const edit = await request(instance.app)
      .post(`/threads/${created.thread_id}/edit`)
      .send({ draft: EDITED });

    expect(edit.status).toBe(500);
    const unchanged = (await request(instance.app).get(`/threads/${created.thread_id}`)).body;
    expect(unchanged).toMatchObject({
      status: 'awaiting_review',
      draft: created.draft,
      revision: 1,
    });
    const again = await request(instance.app)
      .post(`/threads/${created.thread_id}/edit`)
      .send({ draft: EDITED, revision: 1 });
    expect(again.body).toMatchObject({ status: 'awaiting_review', draft: EDITED, revision: 2 });
    const history = await request(instance.app).get(`/threads/${created.thread_id}/history`);
    expect(
      history.body.events.map((event: { type: string; actor: string; revision?: number }) =>
        [event.type, event.actor, event.revision].filter((part) => part !== undefined).join(':'),
      ),
    ).toEqual(['created:anonymous', 'classified:model', 'drafted:model:1', 'edited:anonymous:2']);
  });
});
