import { startEmulator, type Emulator } from '@repo/llm-emulator';
import request from 'supertest';
import { dropSchema, freshSchema, testModes } from './support/database.js';
import { BILLING_EMAIL, OUTAGE_EMAIL } from './support/emails.js';
import { ALWAYS_500, PASS_ONE } from './support/emulator-faults.js';
import { startInstance, type Instance } from './support/harness.js';
import { llmCalls, workflowRequests } from './support/llm-calls.js';

const modes = await testModes();

describe.each(modes)('LLM faults (%s)', (mode) => {
  const schema = freshSchema('faults');
  let emulator: Emulator;
  let instance: Instance;

  beforeAll(async () => {
    emulator = await startEmulator();
    instance = await startInstance({ mode, emulator, schema });
  });
  beforeEach(() => {
    emulator.faults.clear();
    emulator.requests.clear();
  });
  afterAll(async () => {
    await instance?.close();
    await emulator?.close();
    if (mode === 'postgres') await dropSchema(schema);
  });

  test('when the provider answers 429 once, then the SDK retries and the thread is created', async () => {
    emulator.faults.add({
      provider: 'openai',
      kind: 'status',
      status: 429,
      retryAfterSeconds: 0,
      count: 1,
    });

    const res = await request(instance.app).post('/threads').send({ inbound: BILLING_EMAIL });

    expect(res.status).toBe(201);
    expect(res.body.status).toBe('awaiting_review');
    expect(llmCalls(emulator)).toMatchObject({
      total: 3,
      classify: 2,
      draft: 1,
      statuses: [429, 200, 200],
    });
  });

  test('when drafting fails on every try, then 502 with the thread id, the thread is failed, and retry finishes it without classifying again', async () => {
    const bystander = (await request(instance.app).post('/threads').send({ inbound: OUTAGE_EMAIL }))
      .body;
    emulator.requests.clear();
    emulator.faults.add(PASS_ONE);
    emulator.faults.add(ALWAYS_500);

    const failed = await request(instance.app).post('/threads').send({ inbound: BILLING_EMAIL });

    expect(failed.status).toBe(502);
    expect(failed.body).toMatchObject({ code: 'llm_unavailable', thread_id: expect.any(String) });
    expect(llmCalls(emulator)).toMatchObject({ classify: 1, draft: 3 });
    const stored = await request(instance.app).get(`/threads/${failed.body.thread_id}`);
    expect(stored.body).toMatchObject({
      status: 'failed',
      inbound: BILLING_EMAIL,
      classification: { category: 'billing' },
      draft: null,
      error: { code: 'llm_unavailable', message: expect.any(String) },
    });
    expect((await request(instance.app).get(`/threads/${bystander.thread_id}`)).body).toEqual(
      bystander,
    );

    emulator.faults.clear();
    emulator.requests.clear();
    const retried = await request(instance.app).post(`/threads/${failed.body.thread_id}/retry`);

    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({
      status: 'awaiting_review',
      classification: stored.body.classification,
      draft: expect.any(String),
      revision: 1,
      error: null,
    });
    expect(llmCalls(emulator)).toMatchObject({ total: 1, classify: 0, draft: 1 });
  });

  test('when a retry fails again, then 502 and the thread stays failed', async () => {
    emulator.faults.add(ALWAYS_500);
    const failed = await request(instance.app).post('/threads').send({ inbound: BILLING_EMAIL });
    expect(failed.status).toBe(502);
    const before = (await request(instance.app).get(`/threads/${failed.body.thread_id}`)).body;

    const retried = await request(instance.app).post(`/threads/${failed.body.thread_id}/retry`);

    expect(retried.status).toBe(502);
    expect(retried.body).toMatchObject({
      code: 'llm_unavailable',
      thread_id: failed.body.thread_id,
    });
    const after = (await request(instance.app).get(`/threads/${failed.body.thread_id}`)).body;
    expect(after).toMatchObject({
      status: 'failed',
      inbound: BILLING_EMAIL,
      draft: null,
      error: { code: 'llm_unavailable' },
    });
    expect(after.created_at).toBe(before.created_at);
  });

  test('when the provider fails from the first call, then retry runs classify and draft', async () => {
    emulator.faults.add(ALWAYS_500);
    const failed = await request(instance.app).post('/threads').send({ inbound: BILLING_EMAIL });
    expect(failed.status).toBe(502);
    expect(
      (await request(instance.app).get(`/threads/${failed.body.thread_id}`)).body,
    ).toMatchObject({
      status: 'failed',
      classification: null,
    });

    emulator.faults.clear();
    emulator.requests.clear();
    const retried = await request(instance.app).post(`/threads/${failed.body.thread_id}/retry`);

    expect(retried.body).toMatchObject({
      status: 'awaiting_review',
      classification: { category: 'billing' },
    });
    expect(llmCalls(emulator)).toMatchObject({ total: 2, classify: 1, draft: 1 });
  });

  test('when a redraft fails, then 502 keeps the previous draft and the instructions, and retry redrafts with them', async () => {
    const created = (await request(instance.app).post('/threads').send({ inbound: BILLING_EMAIL }))
      .body;
    emulator.faults.add(ALWAYS_500);

    const failed = await request(instance.app)
      .post(`/threads/${created.thread_id}/edit`)
      .send({ instructions: 'Offer a 10% discount.' });

    expect(failed.status).toBe(502);
    expect(failed.body.thread_id).toBe(created.thread_id);
    const stored = (await request(instance.app).get(`/threads/${created.thread_id}`)).body;
    expect(stored).toMatchObject({ status: 'failed', draft: created.draft, revision: 1 });
    // A failed thread is not reviewable until it is retried.
    await request(instance.app).post(`/threads/${created.thread_id}/approve`).expect(409);

    emulator.faults.clear();
    emulator.requests.clear();
    const retried = await request(instance.app).post(`/threads/${created.thread_id}/retry`);

    expect(retried.body).toMatchObject({ status: 'awaiting_review', revision: 2, error: null });
    const [call] = workflowRequests(emulator);
    expect(JSON.stringify(call!.body)).toContain('Offer a 10% discount.');
    expect(llmCalls(emulator)).toMatchObject({ total: 1, draft: 1 });
  });

  test('when the model answers malformed JSON, then 502 and the thread is failed', async () => {
    emulator.faults.add({ provider: 'openai', kind: 'malformed', count: 1000 });

    const res = await request(instance.app).post('/threads').send({ inbound: BILLING_EMAIL });

    expect(res.status).toBe(502);
    const stored = (await request(instance.app).get(`/threads/${res.body.thread_id}`)).body;
    expect(stored).toMatchObject({ status: 'failed', error: { code: res.body.code } });
    expect(res.body.code).toBe('llm_output_invalid');
  });
});
