import { startEmulator, type Emulator } from '@repo/llm-emulator';
import request from 'supertest';
import { dropSchema, freshSchema, testModes } from './support/database.js';
import { BILLING_EMAIL } from './support/emails.js';
import { startInstance, type Instance } from './support/harness.js';
import { llmCalls } from './support/llm-calls.js';

const modes = await testModes();

describe.each(modes)('model retries (%s)', (mode) => {
  const schema = freshSchema('retries');
  let emulator: Emulator;
  let instance: Instance;

  beforeAll(async () => {
    emulator = await startEmulator();
    instance = await startInstance({ mode, emulator, schema, llmRetryBudgetMs: 3_000 });
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

  test('when the connection drops mid-body once, then the call is retried and the thread is created', async () => {
    emulator.faults.add({ provider: 'openai', kind: 'disconnect', count: 1 });

    const res = await request(instance.app).post('/threads').send({ inbound: BILLING_EMAIL });

    expect(res.status).toBe(201);
    expect(res.body.status).toBe('awaiting_review');
    expect(llmCalls(emulator)).toMatchObject({ classify: 2, draft: 1 });
  });

  test('when the connection drops on every try, then 503 llm_unavailable with Retry-After, the thread failed (llm_unavailable) and retryable', async () => {
    emulator.faults.add({ provider: 'openai', kind: 'disconnect', count: 1000 });

    const res = await request(instance.app).post('/threads').send({ inbound: BILLING_EMAIL });

    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    expect(res.body).toMatchObject({ code: 'llm_unavailable', thread_id: expect.any(String) });
    const stored = await request(instance.app).get(`/threads/${res.body.thread_id}`);
    expect(stored.body).toMatchObject({ status: 'failed', error: { code: 'llm_unavailable' } });
    emulator.faults.clear();
    const retried = await request(instance.app).post(`/threads/${res.body.thread_id}/retry`);
    expect(retried.status).toBe(200);
    expect(retried.body.status).toBe('awaiting_review');
  });

  test('when the provider answers 429 with Retry-After: 60, then the create answers 503 with Retry-After at once instead of waiting, and the thread is failed and retryable', async () => {
    emulator.faults.add({
      provider: 'openai',
      kind: 'status',
      status: 429,
      retryAfterSeconds: 60,
      count: 1,
    });
    const started = Date.now();

    const res = await request(instance.app).post('/threads').send({ inbound: BILLING_EMAIL });

    expect(Date.now() - started).toBeLessThan(10_000);
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('60');
    expect(res.body).toMatchObject({ code: 'llm_unavailable', thread_id: expect.any(String) });
    expect(llmCalls(emulator).total).toBe(1);
    const retried = await request(instance.app).post(`/threads/${res.body.thread_id}/retry`);
    expect(retried.status).toBe(200);
  });

  test('when the model keeps answering 503 slowly, then the retries stop within the budget and the create answers 503', async () => {
    emulator.setLatency(1_200);
    emulator.faults.add({ provider: 'openai', kind: 'status', status: 503, count: 1000 });
    const started = Date.now();

    const res = await request(instance.app).post('/threads').send({ inbound: BILLING_EMAIL });
    emulator.setLatency(0);

    // One attempt's time beyond the 3 s budget at most.
    expect(Date.now() - started).toBeLessThan(3_000 + 10_000);
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    expect(res.body).toMatchObject({ code: 'llm_unavailable', thread_id: expect.any(String) });
  });
});
