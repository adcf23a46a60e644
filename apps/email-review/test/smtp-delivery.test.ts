import { startEmulator, type Emulator } from '@repo/llm-emulator';
import request from 'supertest';
import { createSmtpTransport } from '../src/delivery/smtp-transport.js';
import { dropSchema, freshSchema, postgresTestsEnabled, until } from './support/database.js';
import { FAST_RETRIES, startInstance, type Instance } from './support/harness.js';
import { freePort, SmtpSink } from './support/smtp-sink.js';

const withPostgres = await postgresTestsEnabled();
const describePg = withPostgres ? describe : describe.skip;

/** RFC 2045 quoted-printable to text (UTF-8). */
function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  const joined = text.replace(/=\r\n/g, '');
  for (let i = 0; i < joined.length; i += 1) {
    if (joined[i] === '=' && /^[0-9A-F]{2}$/.test(joined.slice(i + 1, i + 3))) {
      bytes.push(parseInt(joined.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(joined[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

const MAIL_FROM = 'Support <support@shop.test>';
const RAW = [
  'From: Ann Example <ann@example.com>',
  'To: support@shop.test',
  'Subject: Re: Charged twice',
  'Message-ID: <m2@mail.example.com>',
  'References: <m0@mail.example.com> <m1@mail.example.com>',
  'Content-Type: text/plain; charset=utf-8',
  '',
  'Still charged twice. Please refund. Ann',
  '',
].join('\r\n');

describePg('SMTP delivery (PostgreSQL)', () => {
  const schema = freshSchema('smtp');
  let emulator: Emulator;
  let sink: SmtpSink;
  let instance: Instance;

  beforeAll(async () => {
    emulator = await startEmulator();
    sink = await SmtpSink.start();
    instance = await startInstance({
      mode: 'postgres',
      emulator,
      schema,
      mailTransport: createSmtpTransport({ url: sink.url, timeoutMs: 2_000 }),
      mailFrom: MAIL_FROM,
    });
  });
  beforeEach(() => {
    sink.rule = () => undefined;
  });
  afterAll(async () => {
    await instance?.close();
    await sink?.stop();
    await emulator?.close();
    await dropSchema(schema);
  });

  const createRaw = async (raw = RAW, messageId = `<${Math.random()}@mail.example.com>`) =>
    (
      await request(instance.app)
        .post('/threads')
        .set('content-type', 'message/rfc822')
        .send(Buffer.from(raw.replace('<m2@mail.example.com>', messageId)))
        .expect(201)
    ).body;

  const deliveryOf = async (app: Instance, threadId: string) =>
    (await request(app.app).get(`/threads/${threadId}`)).body.delivery;

  test('when a thread is approved, then the SMTP server receives exactly one reply with the right headers and body', async () => {
    const thread = await createRaw(RAW, '<m2@mail.example.com>');
    await request(instance.app)
      .post(`/threads/${thread.thread_id}/edit`)
      .send({ draft: 'Dear Ann,\n\nRefunded — €12.50 is on its way.\n\nSupport' })
      .expect(200);

    const approved = await request(instance.app).post(`/threads/${thread.thread_id}/approve`);

    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'sent', delivery: { status: 'queued' } });
    const messageId = approved.body.delivery.message_id as string;
    await until(
      async () => (await deliveryOf(instance, thread.thread_id)).status === 'delivered',
      'delivery',
    );
    const [mail, ...more] = sink.byMessageId(messageId);
    expect(more).toHaveLength(0);
    expect(mail!.envelope).toEqual({ from: 'support@shop.test', to: ['ann@example.com'] });
    expect(mail!.parsed.to).toMatchObject({
      value: [{ name: 'Ann Example', address: 'ann@example.com' }],
    });
    expect(mail!.parsed.from).toMatchObject({
      value: [{ name: 'Support', address: 'support@shop.test' }],
    });
    expect(mail!.parsed.subject).toBe('Re: Charged twice');
    expect(mail!.parsed.inReplyTo).toBe('<m2@mail.example.com>');
    expect(mail!.parsed.references).toEqual([
      '<m0@mail.example.com>',
      '<m1@mail.example.com>',
      '<m2@mail.example.com>',
    ]);
    expect(mail!.raw).toMatch(/^Content-Type: text\/plain; charset=utf-8\r$/im);
    expect(mail!.raw).toMatch(/^Content-Transfer-Encoding: quoted-printable\r$/im);
    expect(mail!.parsed.attachments).toHaveLength(0);
    // The body as it went over the wire, decoded: the approved draft exactly (SMTP's DATA adds the last CRLF).
    expect(decodeQuotedPrintable(mail!.raw.split('\r\n\r\n').slice(1).join('\r\n\r\n'))).toBe(
      'Dear Ann,\r\n\r\nRefunded — €12.50 is on its way.\r\n\r\nSupport\r\n',
    );
    expect(await deliveryOf(instance, thread.thread_id)).toMatchObject({
      status: 'delivered',
      attempts: 1,
      delivered_at: expect.any(String),
      last_error: null,
    });
    expect((await instance.persistence.deliveries.get(thread.thread_id))?.last_response).toMatch(
      /^250/,
    );
  });

  test('when the server answers 4xx once, then the reply is retried and delivered', async () => {
    const thread = await createRaw();
    let refusals = 0;
    sink.rule = () => (refusals++ === 0 ? { code: 451, message: 'Try again later' } : undefined);

    await request(instance.app).post(`/threads/${thread.thread_id}/approve`).expect(200);

    await until(
      async () => (await deliveryOf(instance, thread.thread_id)).status === 'delivered',
      'delivery',
    );
    expect(await deliveryOf(instance, thread.thread_id)).toMatchObject({ attempts: 2 });
    expect(refusals).toBe(2);
  });

  test('when the server answers 4xx on every attempt, then the queue retries it until the last attempt and the delivery fails with the last reply', async () => {
    const thread = await createRaw();
    let refusals = 0;
    sink.rule = () => {
      refusals += 1;
      return { code: 451, message: 'Mailbox busy' };
    };

    await request(instance.app).post(`/threads/${thread.thread_id}/approve`).expect(200);
    await until(
      async () => (await deliveryOf(instance, thread.thread_id)).status === 'failed',
      'failure after the retries',
      20_000,
    );

    expect(refusals).toBe(FAST_RETRIES.maxAttempts);
    expect(await deliveryOf(instance, thread.thread_id)).toMatchObject({
      attempts: FAST_RETRIES.maxAttempts,
      last_response: expect.stringMatching(/^451 .*Mailbox busy/),
    });
    const history = (await request(instance.app).get(`/threads/${thread.thread_id}/history`)).body;
    expect(
      history.events.filter((e: { type: string }) => e.type === 'delivery_failed'),
    ).toHaveLength(1);

    // Once the server takes mail again, redeliver queues a new job with a fresh retry budget.
    sink.rule = () => undefined;
    await request(instance.app).post(`/threads/${thread.thread_id}/redeliver`).expect(200);
    await until(
      async () => (await deliveryOf(instance, thread.thread_id)).status === 'delivered',
      'delivery after redeliver',
    );
  }, 30_000);

  test('when the server refuses the recipient with 550, then the delivery fails at once, is listed, and redeliver after the fix delivers it', async () => {
    const thread = await createRaw();
    sink.rule = () => ({ code: 550, message: 'No such user' });

    await request(instance.app).post(`/threads/${thread.thread_id}/approve`).expect(200);
    await until(
      async () => (await deliveryOf(instance, thread.thread_id)).status === 'failed',
      'failure',
    );

    expect(await deliveryOf(instance, thread.thread_id)).toMatchObject({
      attempts: 1,
      last_error: expect.stringContaining('550'),
      last_response: expect.stringMatching(/^550 .*No such user/),
    });
    const failed = await request(instance.app).get('/threads').query({ delivery: 'failed' });
    expect(failed.body.items.map((t: { thread_id: string }) => t.thread_id)).toEqual([
      thread.thread_id,
    ]);

    sink.rule = () => undefined;
    const redelivered = await request(instance.app).post(`/threads/${thread.thread_id}/redeliver`);
    expect(redelivered.status).toBe(200);
    expect(redelivered.body.delivery.status).toMatch(/queued|delivered/);
    await until(
      async () => (await deliveryOf(instance, thread.thread_id)).status === 'delivered',
      'delivery',
    );
    expect(sink.byMessageId(redelivered.body.delivery.message_id)).toHaveLength(1);
  });

  test('when redeliver is asked for a delivery that has not failed, then 409', async () => {
    const awaiting = await createRaw();
    const delivered = await createRaw();
    await request(instance.app).post(`/threads/${delivered.thread_id}/approve`).expect(200);
    await until(
      async () => (await deliveryOf(instance, delivered.thread_id)).status === 'delivered',
      'delivery',
    );

    const notSent = await request(instance.app).post(`/threads/${awaiting.thread_id}/redeliver`);
    const alreadyDelivered = await request(instance.app).post(
      `/threads/${delivered.thread_id}/redeliver`,
    );

    expect(notSent.status).toBe(409);
    expect(notSent.body).toMatchObject({ code: 'delivery_not_failed', delivery_status: 'none' });
    expect(alreadyDelivered.status).toBe(409);
    expect(alreadyDelivered.body).toMatchObject({
      code: 'delivery_not_failed',
      delivery_status: 'delivered',
    });
  });

  test('when SMTP is configured and the thread has no sender, then approve ends it sent with delivery no_recipient, nothing reaches the server, and redeliver with a recipient delivers it once', async () => {
    const before = sink.received.length;
    const thread = (
      await request(instance.app)
        .post('/threads')
        .send({ inbound: 'Please call me back.' })
        .expect(201)
    ).body;

    const approved = await request(instance.app).post(`/threads/${thread.thread_id}/approve`);

    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({
      status: 'sent',
      delivery: { status: 'no_recipient', to: null, attempts: 0, last_response: null },
    });
    const listed = await request(instance.app).get('/threads?delivery=no_recipient');
    expect(listed.body.items.map((t: { thread_id: string }) => t.thread_id)).toEqual([
      thread.thread_id,
    ]);
    const withoutRecipient = await request(instance.app).post(
      `/threads/${thread.thread_id}/redeliver`,
    );
    expect(withoutRecipient.status).toBe(422);
    expect(withoutRecipient.body).toMatchObject({ code: 'recipient_required' });
    expect(sink.received).toHaveLength(before);

    const redelivered = await request(instance.app)
      .post(`/threads/${thread.thread_id}/redeliver`)
      .send({ to: 'Bob <bob@example.com>' });

    expect(redelivered.status).toBe(200);
    expect(redelivered.body.delivery).toMatchObject({
      status: 'queued',
      to: 'Bob <bob@example.com>',
    });
    await until(
      async () =>
        (await request(instance.app).get(`/threads/${thread.thread_id}`)).body.delivery.status ===
        'delivered',
      'delivery after redeliver',
    );
    const delivered = (await request(instance.app).get(`/threads/${thread.thread_id}`)).body;
    expect(delivered.delivery.last_response).toMatch(/^250 /);
    expect(sink.byMessageId(approved.body.delivery.message_id)).toHaveLength(1);
    expect(sink.byMessageId(approved.body.delivery.message_id)[0]!.envelope.to).toEqual([
      'bob@example.com',
    ]);
    const history = (await request(instance.app).get(`/threads/${thread.thread_id}/history`)).body;
    expect(history.events.map((e: { type: string }) => e.type).slice(-4)).toEqual([
      'approved',
      'no_recipient',
      'redelivered',
      'delivered',
    ]);
  });

  test('when approve names a recipient, then the reply goes there instead of the sender', async () => {
    const thread = await createRaw();

    const approved = await request(instance.app)
      .post(`/threads/${thread.thread_id}/approve`)
      .send({ to: 'Billing Team <billing@example.com>' });

    expect(approved.status).toBe(200);
    expect(approved.body.delivery.to).toBe('Billing Team <billing@example.com>');
    await until(
      async () => (await deliveryOf(instance, thread.thread_id)).status === 'delivered',
      'delivery',
    );
    expect(sink.byMessageId(approved.body.delivery.message_id)[0]!.envelope.to).toEqual([
      'billing@example.com',
    ]);
  });

  test('when approve names an invalid recipient, then 400 and nothing is queued', async () => {
    const thread = await createRaw();

    const refused = await request(instance.app)
      .post(`/threads/${thread.thread_id}/approve`)
      .send({ to: 'nobody' });

    expect(refused.status).toBe(400);
    expect(await instance.persistence.deliveries.get(thread.thread_id)).toBeUndefined();
  });
});

describePg('SMTP server down at approve (PostgreSQL)', () => {
  const schema = freshSchema('smtpdown');
  let emulator: Emulator;
  let sink: SmtpSink | undefined;
  let instance: Instance;

  afterAll(async () => {
    await instance?.close();
    await sink?.stop();
    await emulator?.close();
    await dropSchema(schema);
  });

  test('when the SMTP server is down at approve and starts 5 s later, then the reply is delivered with no further request', async () => {
    emulator = await startEmulator();
    const port = await freePort();
    instance = await startInstance({
      mode: 'postgres',
      emulator,
      schema,
      mailTransport: createSmtpTransport({ url: `smtp://127.0.0.1:${port}`, timeoutMs: 1_000 }),
      mailFrom: MAIL_FROM,
      retryPolicy: { maxAttempts: 30, delaySeconds: 1, backoff: false },
    });
    const thread = (
      await request(instance.app)
        .post('/threads')
        .send({ inbound: 'Refund please.', from: 'ann@example.com' })
        .expect(201)
    ).body;

    const approved = await request(instance.app).post(`/threads/${thread.thread_id}/approve`);
    expect(approved.body).toMatchObject({ status: 'sent', delivery: { status: 'queued' } });
    await until(
      async () => (await instance.persistence.deliveries.get(thread.thread_id))!.attempts >= 2,
      'failed attempts',
    );
    const meanwhile = await instance.persistence.deliveries.get(thread.thread_id);
    expect(meanwhile).toMatchObject({
      status: 'queued',
      last_error: expect.stringMatching(/ECONNREFUSED|ECONNECTION/),
    });

    await new Promise((resolve) => setTimeout(resolve, 5_000));
    sink = await SmtpSink.start(port);

    await until(
      async () =>
        (await instance.persistence.deliveries.get(thread.thread_id))!.status === 'delivered',
      'delivery',
      20_000,
    );
    expect(sink.byMessageId(approved.body.delivery.message_id)).toHaveLength(1);
  }, 40_000);
});
