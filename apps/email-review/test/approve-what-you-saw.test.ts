import { startEmulator, type Emulator } from '@repo/llm-emulator';
import request from 'supertest';
import { stateConfig } from '../src/operations/thread-service.js';
import type { Thread } from '../src/threads/thread.js';
import { dropSchema, freshSchema, testModes } from './support/database.js';
import { BILLING_EMAIL } from './support/emails.js';
import { startInstance, type Instance } from './support/harness.js';

const modes = await testModes();

type Action = 'edit' | 'approve' | 'reject';
const BODIES: Record<Action, Record<string, unknown>> = {
  edit: { draft: 'Dear Ann, we refunded you.' },
  approve: {},
  reject: { reason: 'Not for us.' },
};

describe.each(modes)('approvals bound to the revision the reviewer saw (%s)', (mode) => {
  const schema = freshSchema('revision');
  let emulator: Emulator;
  let instance: Instance;

  beforeAll(async () => {
    emulator = await startEmulator();
    instance = await startInstance({ mode, emulator, schema });
  });
  afterAll(async () => {
    await instance?.close();
    await emulator?.close();
    if (mode === 'postgres') await dropSchema(schema);
  });

  /** A thread at revision 2: drafted by the model, then edited once. */
  async function editedThread(): Promise<string> {
    const created = await request(instance.app)
      .post('/threads')
      .send({ inbound: BILLING_EMAIL, from: 'ann@example.com' });
    const id = created.body.thread_id as string;
    await request(instance.app)
      .post(`/threads/${id}/edit`)
      .send({ draft: 'Dear Ann, revision two.' })
      .expect(200);
    return id;
  }

  async function snapshot(id: string) {
    const [thread, history] = await Promise.all([
      request(instance.app).get(`/threads/${id}`),
      request(instance.app).get(`/threads/${id}/history`),
    ]);
    return { thread: thread.body, events: history.body.events };
  }

  test('when a thread is fetched, then its ETag is its revision in quotes', async () => {
    const id = await editedThread();

    const res = await request(instance.app).get(`/threads/${id}`);

    expect(res.status).toBe(200);
    expect(res.headers.etag).toBe('"2"');
    expect(res.body.revision).toBe(2);
  });

  test('when a thread changes status under one revision, then a GET with If-None-Match of that ETag still answers the thread (never 304)', async () => {
    const id = await editedThread();
    await request(instance.app).post(`/threads/${id}/approve`).expect(200);

    const res = await request(instance.app).get(`/threads/${id}`).set('If-None-Match', '"2"');

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'sent', revision: 2 });
  });

  test('when the list and a history are asked again with If-None-Match of their ETag, then 304 until they change', async () => {
    const id = await editedThread();
    for (const path of ['/threads', `/threads/${id}/history`]) {
      const first = await request(instance.app).get(path).expect(200);
      expect(first.headers.etag).toMatch(/^W\//);
      await request(instance.app).get(path).set('If-None-Match', first.headers.etag!).expect(304);
    }
    const history = await request(instance.app).get(`/threads/${id}/history`).expect(200);
    await request(instance.app).post(`/threads/${id}/approve`).expect(200);
    await request(instance.app)
      .get(`/threads/${id}/history`)
      .set('If-None-Match', history.headers.etag!)
      .expect(200);
  });

  test('when edit carries If-Match of the current revision, then it applies and answers the new ETag', async () => {
    const id = await editedThread();

    const res = await request(instance.app)
      .post(`/threads/${id}/edit`)
      .set('If-Match', '"2"')
      .send({ draft: 'Dear Ann, revision three.' });

    expect(res.status).toBe(200);
    expect(res.headers.etag).toBe('"3"');
    expect(res.body).toMatchObject({ revision: 3, draft: 'Dear Ann, revision three.' });
  });

  test.each<Action>(['edit', 'approve', 'reject'])(
    'when %s carries If-Match of a revision that is no longer current, then 412 revision_mismatch with the current revision, and nothing changed',
    async (action) => {
      const id = await editedThread();
      const before = await snapshot(id);

      const res = await request(instance.app)
        .post(`/threads/${id}/${action}`)
        .set('If-Match', '"1"')
        .send(BODIES[action]);

      expect(res.status).toBe(412);
      expect(res.body).toMatchObject({ code: 'revision_mismatch', thread_id: id, revision: 2 });
      expect(res.headers.etag).toBe('"2"');
      expect(await snapshot(id)).toEqual(before);
    },
  );

  test.each<Action>(['edit', 'approve', 'reject'])(
    'when %s carries a body revision that is no longer current, then 409 revision_mismatch with the current revision, and nothing changed',
    async (action) => {
      const id = await editedThread();
      const before = await snapshot(id);

      const res = await request(instance.app)
        .post(`/threads/${id}/${action}`)
        .send({ ...BODIES[action], revision: 1 });

      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: 'revision_mismatch', thread_id: id, revision: 2 });
      expect(await snapshot(id)).toEqual(before);
    },
  );

  test('when approve carries the current revision in the body, then the thread is sent at that revision', async () => {
    const id = await editedThread();

    const res = await request(instance.app).post(`/threads/${id}/approve`).send({ revision: 2 });

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'sent',
      revision: 2,
      draft: 'Dear Ann, revision two.',
    });
  });

  test('when reject carries If-Match of the current revision, then the thread is rejected', async () => {
    const id = await editedThread();

    const res = await request(instance.app).post(`/threads/${id}/reject`).set('If-Match', '"2"');

    expect(res.status).toBe(200);
    expect(res.body.status).toBe('rejected');
  });

  test('when If-Match lists several tags or is `*`, then a list holding the current one and `*` both apply', async () => {
    const listed = await editedThread();
    const any = await editedThread();

    const byList = await request(instance.app)
      .post(`/threads/${listed}/approve`)
      .set('If-Match', '"1", "2"');
    const byAny = await request(instance.app).post(`/threads/${any}/approve`).set('If-Match', '*');

    expect(byList.status).toBe(200);
    expect(byAny.status).toBe(200);
  });

  test('when If-Match names a weak tag of the current revision, then 412 (If-Match compares strongly)', async () => {
    const id = await editedThread();

    const res = await request(instance.app).post(`/threads/${id}/approve`).set('If-Match', 'W/"2"');

    expect(res.status).toBe(412);
    expect(res.body.revision).toBe(2);
  });

  test('when neither If-Match nor a body revision is sent, then the change applies to the current revision', async () => {
    const id = await editedThread();

    const res = await request(instance.app).post(`/threads/${id}/approve`);

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'sent', revision: 2 });
  });

  test('when If-Match and the body disagree, then If-Match decides first (412)', async () => {
    const id = await editedThread();

    const res = await request(instance.app)
      .post(`/threads/${id}/approve`)
      .set('If-Match', '"1"')
      .send({ revision: 2 });

    expect(res.status).toBe(412);
  });

  test('when the body revision is not a non-negative integer, then 400', async () => {
    const id = await editedThread();

    const res = await request(instance.app).post(`/threads/${id}/approve`).send({ revision: '2' });

    expect(res.status).toBe(400);
  });

  // Approve writes the view and the checkpoint in one transaction (it used to compare them first,
  // because a stalled lease holder could write the checkpoint behind the view's back).
  test('when a thread is approved, then its checkpoint records as sent exactly the text and revision the view showed', async () => {
    const created = (
      await request(instance.app)
        .post('/threads')
        .send({ inbound: BILLING_EMAIL, from: 'ann@example.com' })
    ).body as Thread;
    const edited = (
      await request(instance.app)
        .post(`/threads/${created.thread_id}/edit`)
        .send({ draft: 'Dear Ann, refunded today.', revision: 1 })
    ).body as Thread;

    const approved = await request(instance.app)
      .post(`/threads/${created.thread_id}/approve`)
      .send({ revision: 2 });

    expect(approved.status).toBe(200);
    const state = await instance.graph.getState(stateConfig(created.thread_id));
    expect(state.values).toMatchObject({
      reply: edited.draft,
      revision: 2,
      sent: { text: edited.draft },
    });
    expect(state.next).toEqual([]);
  });
});
