import { startEmulator, type Emulator } from '@repo/llm-emulator';
import request from 'supertest';
import type { Thread } from '../src/threads/thread.js';
import type { ThreadStore } from '../src/threads/thread-store.js';
import { dropSchema, freshSchema, testModes, until } from './support/database.js';
import { BILLING_EMAIL } from './support/emails.js';
import { startInstance, type Instance } from './support/harness.js';

const modes = await testModes();

/** The thread index, except that saving a view `crashesOn` matches fails: the process "dies" there. */
function crashingIndex(threads: ThreadStore, crashesOn: (thread: Thread) => boolean): ThreadStore {
  return {
    create: (thread, key, events) => threads.create(thread, key, events),
    get: (threadId) => threads.get(threadId),
    list: (query) => threads.list(query),
    save: async (thread, events) => {
      if (crashesOn(thread)) throw new Error('simulated crash before the index write');
      await threads.save(thread, events);
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

  test('when a text edit reaches the checkpoint but not the index, then approve refuses until retry shows the saved draft, and sends only that', async () => {
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
    expect(shown).toMatchObject({ status: 'drafting', draft: created.draft });
    const early = await request(instance.app).post(`/threads/${created.thread_id}/approve`);
    expect(early.status).toBe(409);
    expect(await instance.persistence.deliveries.get(created.thread_id)).toBeUndefined();

    const retried = await request(instance.app).post(`/threads/${created.thread_id}/retry`);
    expect(retried.body).toMatchObject({ status: 'awaiting_review', draft: EDITED, revision: 2 });
    const approved = await request(instance.app).post(`/threads/${created.thread_id}/approve`);

    expect(approved.body).toMatchObject({ status: 'sent', draft: EDITED });
    await until(() => instance.transport.delivered.length > 0, 'the delivery');
    expect(instance.transport.delivered.map((message) => message.body)).toEqual([EDITED]);
    // The edit's own event was lost with its view; the history says the view caught up at revision 2.
    const history = await request(instance.app).get(`/threads/${created.thread_id}/history`);
    expect(
      history.body.events
        .slice(0, 6)
        .map((event: { type: string; revision?: number }) =>
          [event.type, event.revision].filter((part) => part !== undefined).join(':'),
        ),
    ).toEqual(['created', 'classified', 'drafted:1', 'retried', 'recovered:2', 'approved:2']);
  });

  test('when only an edit’s index write is refused, then the thread is kept failed and its history says the reviewer edited it, not that the model drafted it', async () => {
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
    expect(edit.body).toMatchObject({ thread_id: created.thread_id });
    const shown = (await request(instance.app).get(`/threads/${created.thread_id}`)).body;
    expect(shown).toMatchObject({ status: 'failed', draft: EDITED, revision: 2 });
    const history = await request(instance.app).get(`/threads/${created.thread_id}/history`);
    expect(
      history.body.events.map((event: { type: string; actor: string; revision?: number }) =>
        [event.type, event.actor, event.revision].filter((part) => part !== undefined).join(':'),
      ),
    ).toEqual([
      'created:anonymous',
      'classified:model',
      'drafted:model:1',
      'edited:anonymous:2',
      'failed:system',
    ]);
  });
});
