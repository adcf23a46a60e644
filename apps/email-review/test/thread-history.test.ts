import { createHash } from 'node:crypto';
import { startEmulator, type Emulator } from '@repo/llm-emulator';
import pg from 'pg';
import request from 'supertest';
import { createSmtpTransport } from '../src/delivery/smtp-transport.js';
import {
  dropSchema,
  freshSchema,
  TEST_DATABASE_URL,
  testModes,
  until,
} from './support/database.js';
import { BILLING_EMAIL } from './support/emails.js';
import { ALWAYS_500, PASS_ONE } from './support/emulator-faults.js';
import { startInstance, type Instance } from './support/harness.js';
import { SmtpSink } from './support/smtp-sink.js';

const modes = await testModes();

const RAW = [
  'From: Ann Example <ann@example.com>',
  'To: support@shop.test',
  'Subject: Charged twice',
  'Message-ID: <history-1@mail.example.com>',
  'Content-Type: text/plain; charset=utf-8',
  '',
  'I was charged twice for INV-2231. Please refund. Ann',
  '',
].join('\r\n');

const at = expect.any(String);
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe.each(modes)('thread history (%s)', (mode) => {
  const schema = freshSchema('history');
  let emulator: Emulator;
  let sink: SmtpSink;
  let instance: Instance;

  beforeAll(async () => {
    emulator = await startEmulator();
    sink = await SmtpSink.start();
    instance = await startInstance({
      mode,
      emulator,
      schema,
      mailTransport: createSmtpTransport({ url: sink.url, timeoutMs: 2_000 }),
      mailFrom: 'Support <support@shop.test>',
    });
  });
  beforeEach(() => {
    emulator.faults.clear();
    sink.rule = () => undefined;
  });
  afterAll(async () => {
    await instance?.close();
    await sink?.stop();
    await emulator?.close();
    if (mode === 'postgres') await dropSchema(schema);
  });

  const create = () =>
    request(instance.app)
      .post('/threads')
      .send({ inbound: BILLING_EMAIL, from: 'ann@example.com', subject: 'Charged twice' });
  const history = async (id: string) => {
    const res = await request(instance.app).get(`/threads/${id}/history`).expect(200);
    expect(res.body.thread_id).toBe(id);
    return res.body.events as Array<Record<string, unknown>>;
  };
  const deliveryStatus = async (id: string) =>
    (await request(instance.app).get(`/threads/${id}`)).body.delivery?.status as string | undefined;

  test('when a thread goes through the whole flow, then its history lists every step, oldest first, exactly as listed', async () => {
    const created = await create().expect(201);
    const id = created.body.thread_id as string;
    await request(instance.app).post(`/threads/${id}/edit`).send({ draft: 'Dear Ann, refunded.' });
    const redrafted = await request(instance.app)
      .post(`/threads/${id}/edit`)
      .send({ instructions: 'Mention the invoice number.' });
    await request(instance.app).post(`/threads/${id}/approve`).expect(200);
    await until(async () => (await deliveryStatus(id)) === 'delivered', 'delivery');

    expect(await history(id)).toEqual([
      { type: 'created', at, actor: 'anonymous', source: 'json' },
      {
        type: 'classified',
        at,
        actor: 'model',
        category: created.body.classification.category,
        urgency: created.body.classification.urgency,
      },
      { type: 'drafted', at, actor: 'model', revision: 1 },
      { type: 'edited', at, actor: 'anonymous', revision: 2, text: 'Dear Ann, refunded.' },
      {
        type: 'redrafted',
        at,
        actor: 'anonymous',
        revision: 3,
        instructions: 'Mention the invoice number.',
      },
      {
        type: 'approved',
        at,
        actor: 'anonymous',
        revision: 3,
        text_sha256: sha256(redrafted.body.draft),
      },
      { type: 'queued', at, actor: 'system', attempts: 0, last_error: null },
      { type: 'delivered', at, actor: 'system', attempts: 1, last_error: null },
    ]);
  });

  test('when a thread is rejected with a reason, then the history ends with the rejection, its actor and reason', async () => {
    const id = (await create().expect(201)).body.thread_id as string;

    await request(instance.app)
      .post(`/threads/${id}/reject`)
      .send({ reason: 'Spam from a known sender.' })
      .expect(200);

    expect((await history(id)).slice(-1)).toEqual([
      { type: 'rejected', at, actor: 'anonymous', reason: 'Spam from a known sender.' },
    ]);
  });

  test('when a thread is rejected without a reason, then the rejection records a null reason', async () => {
    const id = (await create().expect(201)).body.thread_id as string;

    await request(instance.app).post(`/threads/${id}/reject`).expect(200);

    expect((await history(id)).slice(-1)).toEqual([
      { type: 'rejected', at, actor: 'anonymous', reason: null },
    ]);
  });

  test('when drafting fails and the thread is retried, then the history has the failure with its code, then the retry and the draft', async () => {
    emulator.faults.add(PASS_ONE);
    emulator.faults.add(ALWAYS_500);
    const failed = await create().expect(502);
    const id = failed.body.thread_id as string;
    expect((await history(id)).map((event) => event.type)).toEqual([
      'created',
      'classified',
      'failed',
    ]);
    emulator.faults.clear();

    await request(instance.app).post(`/threads/${id}/retry`).expect(200);

    expect((await history(id)).slice(2)).toEqual([
      { type: 'failed', at, actor: 'system', code: 'llm_unavailable' },
      { type: 'retried', at, actor: 'anonymous' },
      { type: 'drafted', at, actor: 'model', revision: 1 },
    ]);
  });

  test('when the email comes as a raw message, then `created` says its source is mime', async () => {
    const res = await request(instance.app)
      .post('/threads')
      .set('content-type', 'message/rfc822')
      .send(RAW)
      .expect(201);

    expect((await history(res.body.thread_id))[0]).toEqual({
      type: 'created',
      at,
      actor: 'anonymous',
      source: 'mime',
    });
  });

  test('when the mail server refuses the reply and a reviewer redelivers it, then the history has the failed delivery, the redelivery and the delivery', async () => {
    const id = (await create().expect(201)).body.thread_id as string;
    sink.rule = () => ({ code: 550, message: 'No such user' });
    await request(instance.app).post(`/threads/${id}/approve`).expect(200);
    await until(async () => (await deliveryStatus(id)) === 'failed', 'failure');
    sink.rule = () => undefined;

    await request(instance.app).post(`/threads/${id}/redeliver`).expect(200);
    await until(async () => (await deliveryStatus(id)) === 'delivered', 'delivery');

    expect((await history(id)).slice(-4)).toEqual([
      { type: 'queued', at, actor: 'system', attempts: 0, last_error: null },
      {
        type: 'delivery_failed',
        at,
        actor: 'system',
        attempts: 1,
        last_error: expect.stringContaining('550'),
      },
      {
        type: 'redelivered',
        at,
        actor: 'anonymous',
        attempts: 0,
        last_error: expect.stringContaining('550'),
      },
      {
        type: 'delivered',
        at,
        actor: 'system',
        attempts: 1,
        last_error: expect.stringContaining('550'),
      },
    ]);
  });

  test('when the history of an unknown thread is asked for, then 404', async () => {
    const res = await request(instance.app).get('/threads/no-such-thread/history');

    expect(res.status).toBe(404);
    expect(res.body.code).toBe('thread_not_found');
  });

  if (mode === 'postgres')
    test('when a thread has history rows of the earlier format (one event per row) and of the current one (a write’s events per row), then its history lists them all in order', async () => {
      const id = (await create().expect(201)).body.thread_id as string;
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      try {
        const stored = await client.query<{ type: string }>(
          `SELECT type FROM "${schema}".email_thread_history WHERE thread_id = $1 ORDER BY seq`,
          [id],
        );
        // The create's write, then the run's result: one row each.
        expect(stored.rows.map((row) => row.type)).toEqual(['created', 'classified drafted']);
        // As a deployment of the earlier format left it: one event object per row.
        const at = new Date().toISOString();
        for (const type of ['edited', 'edited'])
          await client.query(
            `INSERT INTO "${schema}".email_thread_history (thread_id, type, event)
             VALUES ($1, $2, $3)`,
            [id, type, { type, at, actor: 'anonymous', revision: 1 }],
          );
      } finally {
        await client.end();
      }
      const res = await request(instance.app).get(`/threads/${id}/history`).expect(200);
      expect(res.body.events.map((event: { type: string }) => event.type)).toEqual([
        'created',
        'classified',
        'drafted',
        'edited',
        'edited',
      ]);
    });

  if (mode === 'postgres')
    test('when a history row is updated in PostgreSQL, then the database refuses (append-only)', async () => {
      const id = (await create().expect(201)).body.thread_id as string;
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      try {
        await expect(
          client.query(
            `UPDATE "${schema}".email_thread_history SET type = 'edited' WHERE thread_id = $1`,
            [id],
          ),
        ).rejects.toThrow(/append-only/);
      } finally {
        await client.end();
      }
    });
});
