import { startEmulator, type Emulator } from '@repo/llm-emulator';
import request from 'supertest';
import { dropSchema, freshSchema, testModes, until } from './support/database.js';
import { BILLING_EMAIL } from './support/emails.js';
import { ALWAYS_500 } from './support/emulator-faults.js';
import { startInstance, type Instance } from './support/harness.js';
import { llmCalls } from './support/llm-calls.js';

const modes = await testModes();

describe.each(modes)('error answers (%s)', (mode) => {
  const schema = freshSchema('errors');
  let emulator: Emulator;
  let instance: Instance;
  /** One thread in each state an error case needs. */
  const ids = { awaiting: '', sent: '', rejected: '', failed: '' };
  let before: unknown;

  /** Everything an answer could have changed: the index, each graph checkpoint, the deliveries. */
  const everything = async () => ({
    index: (await request(instance.app).get('/threads').query({ limit: 100 })).body.items,
    checkpoints: await Promise.all(
      Object.values(ids).map(async (threadId) => {
        const state = await instance.graph.getState({ configurable: { thread_id: threadId } });
        return { threadId, values: state.values, next: state.next };
      }),
    ),
    deliveries: await Promise.all(
      Object.values(ids).map((threadId) => instance.persistence.deliveries.get(threadId)),
    ),
  });

  beforeAll(async () => {
    emulator = await startEmulator();
    instance = await startInstance({ mode, emulator, schema });
    for (const key of ['awaiting', 'sent', 'rejected'] as const) {
      ids[key] = (
        await request(instance.app)
          .post('/threads')
          .send({ inbound: BILLING_EMAIL, from: 'ann@example.com' })
      ).body.thread_id;
    }
    await request(instance.app).post(`/threads/${ids.sent}/approve`).expect(200);
    await until(
      async () => (await instance.persistence.deliveries.get(ids.sent))?.status === 'delivered',
      'the delivery',
    );
    await request(instance.app).post(`/threads/${ids.rejected}/reject`).expect(200);
    emulator.faults.add(ALWAYS_500);
    ids.failed = (
      await request(instance.app)
        .post('/threads')
        .send({ inbound: BILLING_EMAIL, from: 'ann@example.com' })
        .expect(502)
    ).body.thread_id;
    emulator.faults.clear();
    before = await everything();
  });
  beforeEach(() => emulator.requests.clear());
  afterEach(async () => {
    // No error answer may change any thread (its view, its checkpoint, its delivery), or reach the model.
    expect(await everything()).toEqual(before);
    expect(llmCalls(emulator).total).toBe(0);
  });
  afterAll(async () => {
    await instance?.close();
    await emulator?.close();
    if (mode === 'postgres') await dropSchema(schema);
  });

  const problem = (status: number, code?: string) =>
    expect.objectContaining({ status, type: expect.any(String), ...(code ? { code } : {}) });

  test.each([
    ['no body', undefined],
    ['an empty object', {}],
    ['an empty inbound', { inbound: '' }],
    ['a blank inbound', { inbound: '   \n ' }],
    ['a non-string inbound', { inbound: 42 }],
    ['an inbound over 100 000 characters', { inbound: 'x'.repeat(100_001) }],
    ['an unknown field', { inbound: 'hi', cc: 'x' }],
    ['a JSON array', [BILLING_EMAIL]],
    // PostgreSQL can store neither; refused up front in memory mode too, so both modes agree.
    ['a NUL character', { inbound: 'Hello\u0000there' }],
    ['an unpaired surrogate', { inbound: 'Hello \ud800 there' }],
    ['a lone low surrogate', { inbound: '\udc00' }],
  ])('when a thread is created with %s, then 400', async (_label, body) => {
    const req = request(instance.app).post('/threads');
    const res = body === undefined ? await req : await req.send(body as object);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.body).toEqual(problem(400));
  });

  test('when a thread is created without inbound, then 400 says "`inbound` is required"', async () => {
    const res = await request(instance.app).post('/threads').send({ subject: 'Hello' });
    expect(res.body).toEqual(problem(400, 'validation_failed'));
    expect(res.body.detail).toBe('`inbound` is required');
  });

  test('when the body is larger than the limit, then 413 states its size and the limit', async () => {
    const res = await request(instance.app)
      .post('/threads')
      .send({ inbound: 'x'.repeat(2_200_000) });
    expect(res.body).toEqual(problem(413, 'payload_too_large'));
    expect(res.body.detail).toBe('The body is 2.1 MB; the limit is 1 MB.');
  });

  test('when the body is not valid JSON, then 400', async () => {
    const res = await request(instance.app)
      .post('/threads')
      .set('content-type', 'application/json')
      .send('{"inbound": ');
    expect(res.body).toEqual(problem(400, 'malformed_json'));
  });

  test('when the Idempotency-Key is not printable ASCII, then 400', async () => {
    const res = await request(instance.app)
      .post('/threads')
      .set('Idempotency-Key', 'a b')
      .send({ inbound: 'hi' });
    expect(res.body).toEqual(problem(400, 'invalid_idempotency_key'));
  });

  test.each([
    ['both fields', { draft: 'a', instructions: 'b' }],
    ['neither field', {}],
    ['an empty draft', { draft: '' }],
    ['a non-string instruction', { instructions: ['x'] }],
    ['a draft with a NUL character', { draft: 'Dear Ann,\u0000' }],
    ['instructions with an unpaired surrogate', { instructions: 'Shorter \ud83d please' }],
  ])('when an edit has %s, then 400', async (_label, body) => {
    const res = await request(instance.app).post(`/threads/${ids.awaiting}/edit`).send(body);
    expect(res.body).toEqual(problem(400));
  });

  test.each([
    ['both fields', { draft: 'a', instructions: 'b' }],
    ['neither field', {}],
  ])('when an edit has %s, then the 400 says exactly one of the two', async (_label, body) => {
    const res = await request(instance.app).post(`/threads/${ids.awaiting}/edit`).send(body);
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain('exactly one of draft or instructions');
  });

  test('when approve gets a non-empty body, then 400', async () => {
    const res = await request(instance.app)
      .post(`/threads/${ids.awaiting}/approve`)
      .send({ force: true });
    expect(res.body).toEqual(problem(400));
  });

  test.each([
    ['a bad status', { status: 'archived' }],
    ['a zero limit', { limit: 0 }],
    ['a limit over 100', { limit: 101 }],
    ['a forged cursor', { cursor: 'bm90LWEtY3Vyc29y' }],
  ])('when the list query has %s, then 400', async (_label, query) => {
    const res = await request(instance.app).get('/threads').query(query);
    expect(res.body).toEqual(problem(400));
  });

  test.each([
    ['a well-formed unknown id', '00000000-0000-4000-8000-000000000000', 404],
    ['an unknown word', 'nope', 404],
    ['odd characters', encodeURIComponent("'; DROP TABLE x; --"), 400],
    ['a NUL byte', '%00', 400],
    ['non-ASCII text', encodeURIComponent('ümlaut-✓'), 400],
    ['a very long id', 'a'.repeat(5000), 400],
    // Not valid percent-encoding: Express fails to decode the parameter, http-kit answers 400.
    ['a truncated percent-encoding', '%E0%A4%A', 400],
    ['a lone percent sign', '%', 400],
  ])(
    'when a thread id is %s, then every thread route answers 404 or 400, never 500',
    async (_label, id, status) => {
      const answers = await Promise.all([
        request(instance.app).get(`/threads/${id}`),
        request(instance.app).post(`/threads/${id}/edit`).send({ draft: 'x' }),
        request(instance.app).post(`/threads/${id}/approve`),
        request(instance.app).post(`/threads/${id}/reject`),
        request(instance.app).post(`/threads/${id}/retry`),
      ]);
      for (const res of answers) expect(res.body).toEqual(problem(status));
    },
  );

  test('when a thread id is about 100 000 characters, then the answer is 400, 404, 414 or 431, never 500', async () => {
    // Node refuses a request line this long itself (431, no body) before the app sees it.
    const id = 'a'.repeat(100_000);
    const answers = await Promise.all([
      request(instance.app).get(`/threads/${id}`),
      request(instance.app).post(`/threads/${id}/approve`),
    ]);
    for (const res of answers) expect([400, 404, 414, 431]).toContain(res.status);
  });

  test.each([
    ['edit', 'sent', { draft: 'x' }],
    ['edit', 'rejected', { instructions: 'x' }],
    ['edit', 'failed', { draft: 'x' }],
    ['approve', 'sent', undefined],
    ['approve', 'rejected', undefined],
    ['approve', 'failed', undefined],
    ['reject', 'sent', undefined],
    ['reject', 'rejected', undefined],
    ['reject', 'failed', undefined],
  ] as const)('when %s targets a %s thread, then 409', async (action, state, body) => {
    const req = request(instance.app).post(`/threads/${ids[state]}/${action}`);
    const res = body ? await req.send(body) : await req;
    expect(res.body).toEqual(problem(409, 'thread_not_awaiting_review'));
    expect(res.body.thread_id).toBe(ids[state]);
  });

  test.each(['awaiting', 'sent', 'rejected'] as const)(
    'when retry targets a thread that is %s, then 409',
    async (state) => {
      const res = await request(instance.app).post(`/threads/${ids[state]}/retry`);
      expect(res.body).toEqual(problem(409, 'thread_not_retryable'));
      expect(res.body.thread_id).toBe(ids[state]);
    },
  );

  test('when the body is larger than the limit, then 413', async () => {
    const res = await request(instance.app)
      .post('/threads')
      .send({ inbound: 'x'.repeat(1_100_000) });
    expect(res.body).toEqual(problem(413));
  });

  test('when the body is not JSON, then 415', async () => {
    const res = await request(instance.app)
      .post('/threads')
      .set('content-type', 'text/plain')
      .send('hello');
    expect(res.body).toEqual(problem(415));
  });

  test('when a method is not allowed on a thread path, then 405 with Allow', async () => {
    const res = await request(instance.app).delete(`/threads/${ids.awaiting}`);
    expect(res.status).toBe(405);
    expect(res.headers.allow).toContain('GET');
  });
});
