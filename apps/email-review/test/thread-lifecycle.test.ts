import { startEmulator, type Emulator } from '@repo/llm-emulator';
import request from 'supertest';
import { dropSchema, freshSchema, testModes, until } from './support/database.js';
import { BILLING_EMAIL, OUTAGE_EMAIL } from './support/emails.js';
import { startInstance, type Instance } from './support/harness.js';
import { llmCalls, workflowRequests } from './support/llm-calls.js';

const modes = await testModes();

describe.each(modes)('thread lifecycle (%s)', (mode) => {
  const schema = freshSchema('lifecycle');
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
  beforeEach(() => {
    emulator.faults.clear();
    emulator.requests.clear();
  });

  const create = (inbound = BILLING_EMAIL) =>
    request(instance.app).post('/threads').send({ inbound });

  test('when an email is posted, then it is classified and drafted with exactly two LLM calls and awaits review', async () => {
    const res = await create();

    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`/threads/${res.body.thread_id}`);
    expect(res.body).toMatchObject({
      status: 'awaiting_review',
      inbound: BILLING_EMAIL,
      classification: {
        category: 'billing',
        urgency: expect.stringMatching(/^(low|normal|high)$/),
      },
      revision: 1,
      sent_at: null,
      error: null,
    });
    expect(res.body.classification.summary).not.toContain('\n');
    expect(res.body.draft).toEqual(expect.any(String));
    expect(llmCalls(emulator)).toMatchObject({ total: 2, classify: 1, draft: 1 });
  });

  test('when the email says who sent it, then the draft greets the sender by name (the offline emulator reads the From line)', async () => {
    const res = await request(instance.app).post('/threads').send({
      inbound: 'Please refund the double charge.',
      from: 'Dana Example <dana@example.com>',
    });

    expect(res.status).toBe(201);
    expect(res.body.draft).toMatch(/^(Hi|Dear) Dana,/);
  });

  test('when the whole review flow runs, then each step answers as specified and the reply is sent once', async () => {
    const created = await create();
    const id = created.body.thread_id as string;

    const fetched = await request(instance.app).get(`/threads/${id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(created.body);

    const byText = await request(instance.app)
      .post(`/threads/${id}/edit`)
      .send({ draft: 'Dear Ann, refunded.' });
    expect(byText.status).toBe(200);
    expect(byText.body).toMatchObject({
      status: 'awaiting_review',
      draft: 'Dear Ann, refunded.',
      revision: 2,
    });

    const byInstructions = await request(instance.app)
      .post(`/threads/${id}/edit`)
      .send({ instructions: 'Shorter, and mention the invoice number.' });
    expect(byInstructions.status).toBe(200);
    expect(byInstructions.body).toMatchObject({ status: 'awaiting_review', revision: 3 });
    expect(byInstructions.body.draft).not.toBe('Dear Ann, refunded.');

    const approved = await request(instance.app).post(`/threads/${id}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({
      status: 'sent',
      draft: byInstructions.body.draft,
      revision: 3,
    });
    expect(Date.parse(approved.body.sent_at)).not.toBeNaN();

    // The seed's email has no sender: nothing is queued until a reviewer names a recipient.
    expect(approved.body.delivery).toMatchObject({ status: 'no_recipient', attempts: 0, to: null });
    expect(instance.transport.delivered).toEqual([]);

    const redelivered = await request(instance.app)
      .post(`/threads/${id}/redeliver`)
      .send({ to: 'ann@example.com' });
    expect(redelivered.status).toBe(200);
    expect(redelivered.body.delivery).toMatchObject({ status: 'queued', to: 'ann@example.com' });
    // The transport has the message a moment before its outcome commits: wait for the record.
    const viewed = () => request(instance.app).get(`/threads/${id}`);
    await until(
      async () => (await viewed()).body.delivery?.status === 'delivered',
      'the delivery recorded',
    );
    const final = await viewed();
    expect(final.body).toEqual({
      ...approved.body,
      delivery: {
        ...approved.body.delivery,
        status: 'delivered',
        to: 'ann@example.com',
        attempts: 1,
        last_response: '250 recorded',
        delivered_at: expect.any(String),
      },
    });
    expect(instance.transport.delivered).toEqual([
      expect.objectContaining({
        thread_id: id,
        to: 'ann@example.com',
        body: byInstructions.body.draft,
      }),
    ]);
    // create 2, instruction edit 1; the text edit and the approval call no model.
    expect(llmCalls(emulator)).toMatchObject({ total: 3, classify: 1, draft: 2 });
  });

  test('when the reviewer asks for a redraft, then the draft step gets the current draft and the instructions', async () => {
    const created = await create();
    emulator.requests.clear();

    await request(instance.app)
      .post(`/threads/${created.body.thread_id}/edit`)
      .send({ instructions: 'Please apologise for the delay.' })
      .expect(200);

    const [call] = workflowRequests(emulator);
    const messages = (call!.body as { messages: Array<{ role: string; content: string }> })
      .messages;
    expect(messages.some((m) => m.role === 'assistant' && m.content === created.body.draft)).toBe(
      true,
    );
    expect(messages.at(-1)!.content).toContain('Please apologise for the delay.');
    expect(llmCalls(emulator).total).toBe(1);
  });

  test('when a thread is rejected, then it ends without sending and without LLM calls', async () => {
    const created = await create(OUTAGE_EMAIL);
    emulator.requests.clear();

    const rejected = await request(instance.app)
      .post(`/threads/${created.body.thread_id}/reject`)
      .send({});

    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({
      status: 'rejected',
      sent_at: null,
      draft: created.body.draft,
    });
    expect(
      (await request(instance.app).get(`/threads/${created.body.thread_id}`)).body.status,
    ).toBe('rejected');
    expect(await instance.persistence.deliveries.get(created.body.thread_id)).toBeUndefined();
    expect(llmCalls(emulator).total).toBe(0);
  });

  test('when a create repeats its Idempotency-Key, then the same thread comes back (200) without LLM calls', async () => {
    const key = `key-${mode}-${Date.now()}`;
    const first = await request(instance.app)
      .post('/threads')
      .set('Idempotency-Key', key)
      .send({ inbound: BILLING_EMAIL });
    emulator.requests.clear();

    const again = await request(instance.app)
      .post('/threads')
      .set('Idempotency-Key', key)
      .send({ inbound: BILLING_EMAIL });

    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(llmCalls(emulator).total).toBe(0);
  });

  test('when two creates with the same Idempotency-Key arrive at once, then one thread is made with two LLM calls', async () => {
    const key = `simultaneous-${mode}-${Date.now()}`;
    const inbound = `${BILLING_EMAIL}\n(${key})`;
    // The first classification is slowed down so the second request arrives during the run.
    emulator.faults.add({ provider: 'openai', kind: 'delay', delayMs: 300, count: 1 });
    const send = () =>
      request(instance.app).post('/threads').set('Idempotency-Key', key).send({ inbound });

    const answers = await Promise.all([send(), send()]);

    expect(answers.map((res) => res.status).sort()).toEqual([200, 201]);
    expect(answers[0]!.body.thread_id).toBe(answers[1]!.body.thread_id);
    const listed = (await request(instance.app).get('/threads').query({ limit: 100 })).body.items;
    expect(listed.filter((t: { inbound: string }) => t.inbound === inbound)).toHaveLength(1);
    expect(llmCalls(emulator)).toMatchObject({ total: 2, classify: 1, draft: 1 });
  });

  test('when an Idempotency-Key is reused for a different email, then 422 and no new thread', async () => {
    const key = `reused-${mode}-${Date.now()}`;
    const first = await request(instance.app)
      .post('/threads')
      .set('Idempotency-Key', key)
      .send({ inbound: BILLING_EMAIL });
    emulator.requests.clear();

    const other = await request(instance.app)
      .post('/threads')
      .set('Idempotency-Key', key)
      .send({ inbound: OUTAGE_EMAIL });

    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({
      code: 'idempotency_key_reused',
      thread_id: first.body.thread_id,
    });
    expect(llmCalls(emulator).total).toBe(0);
  });

  test('when threads are listed, then they come newest first, filtered by status, page by page', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1)
      ids.push((await create(`${OUTAGE_EMAIL}\n#${i}`)).body.thread_id);
    await request(instance.app).post(`/threads/${ids[1]}/reject`).expect(200);

    const page1 = await request(instance.app).get('/threads').query({ limit: 2 });
    expect(page1.status).toBe(200);
    expect(page1.body.items.map((t: { thread_id: string }) => t.thread_id)).toEqual([
      ids[2],
      ids[1],
    ]);
    expect(page1.body.next_cursor).toEqual(expect.any(String));

    const page2 = await request(instance.app)
      .get('/threads')
      .query({ limit: 2, cursor: page1.body.next_cursor });
    expect(page2.body.items[0].thread_id).toBe(ids[0]);

    const awaiting = await request(instance.app)
      .get('/threads')
      .query({ status: 'awaiting_review', limit: 100 });
    const awaitingIds = awaiting.body.items.map((t: { thread_id: string }) => t.thread_id);
    expect(awaitingIds).toEqual(expect.arrayContaining([ids[2], ids[0]]));
    expect(awaitingIds).not.toContain(ids[1]);
    expect(
      awaiting.body.items.every((t: { status: string }) => t.status === 'awaiting_review'),
    ).toBe(true);
    expect(awaiting.body.next_cursor).toBeNull();
  });
});
