import { startEmulator, type Emulator } from '@repo/llm-emulator';
import request from 'supertest';
import { dropSchema, freshSchema, testModes } from './support/database.js';
import { BILLING_EMAIL } from './support/emails.js';
import { startInstance, type Instance } from './support/harness.js';
import { llmCalls } from './support/llm-calls.js';

const modes = await testModes();

describe.each(modes)('error answers (%s)', (mode) => {
  const schema = freshSchema('errors');
  let emulator: Emulator;
  let instance: Instance;
  /** One thread in each state an error case needs. */
  const ids = { awaiting: '', sent: '', rejected: '' };
  let before: unknown;

  const listAll = async () =>
    (await request(instance.app).get('/threads').query({ limit: 100 })).body.items;

  beforeAll(async () => {
    emulator = await startEmulator();
    instance = await startInstance({ mode, emulator, schema });
    for (const key of Object.keys(ids) as Array<keyof typeof ids>) {
      ids[key] = (
        await request(instance.app).post('/threads').send({ inbound: BILLING_EMAIL })
      ).body.thread_id;
    }
    await request(instance.app).post(`/threads/${ids.sent}/approve`).expect(200);
    await request(instance.app).post(`/threads/${ids.rejected}/reject`).expect(200);
    before = await listAll();
  });
  beforeEach(() => emulator.requests.clear());
  afterEach(async () => {
    // No error answer may change any thread, or reach the model.
    expect(await listAll()).toEqual(before);
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
  ])('when a thread is created with %s, then 400', async (_label, body) => {
    const req = request(instance.app).post('/threads');
    const res = body === undefined ? await req : await req.send(body as object);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.body).toEqual(problem(400));
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
  ])('when an edit has %s, then 400', async (_label, body) => {
    const res = await request(instance.app).post(`/threads/${ids.awaiting}/edit`).send(body);
    expect(res.body).toEqual(problem(400));
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

  test.each([
    ['edit', 'sent', { draft: 'x' }],
    ['edit', 'rejected', { instructions: 'x' }],
    ['approve', 'sent', undefined],
    ['approve', 'rejected', undefined],
    ['reject', 'sent', undefined],
    ['reject', 'rejected', undefined],
  ] as const)('when %s targets a %s thread, then 409', async (action, state, body) => {
    const req = request(instance.app).post(`/threads/${ids[state]}/${action}`);
    const res = body ? await req.send(body) : await req;
    expect(res.body).toEqual(problem(409, 'thread_not_awaiting_review'));
    expect(res.body.thread_id).toBe(ids[state]);
  });

  test('when retry targets a thread that has not failed, then 409', async () => {
    const res = await request(instance.app).post(`/threads/${ids.awaiting}/retry`);
    expect(res.body).toEqual(problem(409, 'thread_not_retryable'));
  });

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
