import { startEmulator, type Emulator } from '@repo/llm-emulator';
import request from 'supertest';
import { stateConfig } from '../src/operations/thread-service.js';
import type { Thread } from '../src/threads/thread.js';
import type { ThreadStore } from '../src/threads/thread-store.js';
import { dropSchema, freshSchema, testModes } from './support/database.js';
import { BILLING_EMAIL } from './support/emails.js';
import { startInstance, type Instance } from './support/harness.js';

const modes = await testModes();

const eventTypes = (events: { type: string }[]) => events.map((event) => event.type);

/**
 * A decision reads the thread, then writes in one transaction by compare-and-set. Here another
 * decision commits in between: right after the first one's read (the index's `get`), at the exact
 * moment two racing requests could meet.
 */
describe.each(modes)('decisions by compare-and-set (%s)', (mode) => {
  const schema = freshSchema('decide');
  let emulator: Emulator;
  let instance: Instance;
  let afterGet: ((threadId: string) => Promise<void>) | undefined;

  beforeAll(async () => {
    emulator = await startEmulator();
    instance = await startInstance({
      mode,
      emulator,
      schema,
      wrapThreads: (threads): ThreadStore => {
        /** Runs the injected interference once, after a decision's read. */
        const interfered = async <T>(threadId: string, read: T) => {
          const interfere = afterGet;
          afterGet = undefined;
          await interfere?.(threadId);
          return read;
        };
        return {
          create: (...args) => threads.create(...args),
          list: (query) => threads.list(query),
          history: threads.history,
          counts: () => threads.counts(),
          saveDecision: (...args) => threads.saveDecision(...args),
          get: async (threadId) => interfered(threadId, await threads.get(threadId)),
        };
      },
    });
  });
  afterAll(async () => {
    await instance?.close();
    await emulator?.close();
    if (mode === 'postgres') await dropSchema(schema);
  });

  const create = async () =>
    (await request(instance.app).post('/threads').send({ inbound: BILLING_EMAIL })).body as Thread;

  test('when an edit commits between an approval’s read and its transaction, then approve answers 409 revision_mismatch and nothing is queued', async () => {
    const created = await create();
    afterGet = async (threadId) => {
      await instance.threads.editThread(threadId, { draft: 'Dear Ann, edited meanwhile.' });
    };

    const approve = await request(instance.app).post(`/threads/${created.thread_id}/approve`);

    expect(approve.status).toBe(409);
    expect(approve.body).toMatchObject({ code: 'revision_mismatch', revision: 2 });
    expect(await instance.persistence.deliveries.get(created.thread_id)).toBeUndefined();
    const shown = (await request(instance.app).get(`/threads/${created.thread_id}`)).body as Thread;
    expect(shown).toMatchObject({ status: 'awaiting_review', revision: 2, delivery: null });
    const history = await request(instance.app).get(`/threads/${created.thread_id}/history`);
    expect(eventTypes(history.body.events)).toEqual(['created', 'classified', 'drafted', 'edited']);
  });

  test('when the approval names its revision in If-Match and an edit commits first, then 412', async () => {
    const created = await create();
    afterGet = async (threadId) => {
      await instance.threads.editThread(threadId, { draft: 'Dear Ann, edited meanwhile.' });
    };

    const approve = await request(instance.app)
      .post(`/threads/${created.thread_id}/approve`)
      .set('If-Match', '"1"');

    expect(approve.status).toBe(412);
    expect(approve.body).toMatchObject({ code: 'revision_mismatch', revision: 2 });
  });

  test('when a reject commits between an edit’s read and its transaction, then the edit answers 409 thread_not_awaiting_review and neither the view nor the checkpoint takes its text', async () => {
    const created = await create();
    afterGet = async (threadId) => {
      await instance.threads.rejectThread(threadId);
    };

    const edit = await request(instance.app)
      .post(`/threads/${created.thread_id}/edit`)
      .send({ draft: 'Dear Ann, a text that lost the race.' });

    expect(edit.status).toBe(409);
    expect(edit.body).toMatchObject({ code: 'thread_not_awaiting_review' });
    const shown = (await request(instance.app).get(`/threads/${created.thread_id}`)).body as Thread;
    expect(shown).toMatchObject({ status: 'rejected', draft: created.draft, revision: 1 });
    const state = await instance.graph.getState(stateConfig(created.thread_id));
    expect(state.values).toMatchObject({ reply: created.draft, revision: 1 });
    expect(state.values.rejected_at).toEqual(expect.any(String));
  });

  test('when two edits race, then the second is refused and the history records only the first', async () => {
    const created = await create();
    afterGet = async (threadId) => {
      await instance.threads.editThread(threadId, { draft: 'first' });
    };

    const second = await request(instance.app)
      .post(`/threads/${created.thread_id}/edit`)
      .send({ draft: 'second' });

    expect(second.status).toBe(409);
    const history = await request(instance.app).get(`/threads/${created.thread_id}/history`);
    expect(
      history.body.events.filter((event: { type: string }) => event.type === 'edited'),
    ).toEqual([expect.objectContaining({ text: 'first', revision: 2 })]);
  });
});
