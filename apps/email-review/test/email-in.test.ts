import { startEmulator, type Emulator } from '@repo/llm-emulator';
import request from 'supertest';
import { dropSchema, freshSchema, testModes } from './support/database.js';
import { startInstance, type Instance } from './support/harness.js';
import { llmCalls } from './support/llm-calls.js';
import { manyParts } from './support/mailbox-mail.js';

const modes = await testModes();

const MULTIPART_ALTERNATIVE = [
  'From: "Ann Example" <ann@example.com>',
  'To: support@shop.test',
  'Subject: Charged twice',
  'Message-ID: <m1@mail.example.com>',
  'References: <a0@mail.example.com> <a1@mail.example.com>',
  'MIME-Version: 1.0',
  'Content-Type: multipart/alternative; boundary="b1"',
  '',
  '--b1',
  'Content-Type: text/plain; charset=utf-8',
  'Content-Transfer-Encoding: quoted-printable',
  '',
  'I was charged twice for invoice INV-2231 =E2=80=94 please refund. Caf=C3=A9 Ann',
  '--b1',
  'Content-Type: text/html; charset=utf-8',
  '',
  '<p>I was charged twice for invoice INV-2231 &mdash; please refund.</p>',
  '--b1--',
  '',
].join('\r\n');

/** Latin-1 body and an encoded-word subject: both must come out as UTF-8 text. */
const LATIN1 = Buffer.concat([
  Buffer.from(
    [
      'From: =?ISO-8859-1?Q?J=FCrgen?= <juergen@example.de>',
      'To: support@shop.test',
      'Subject: =?ISO-8859-1?Q?R=FCckerstattung?=',
      'Message-ID: <latin1@example.de>',
      'Content-Type: text/plain; charset=ISO-8859-1',
      'Content-Transfer-Encoding: 8bit',
      '',
      '',
    ].join('\r\n'),
  ),
  Buffer.from('Bitte die doppelte Zahlung zur\xfcckerstatten. Gr\xfc\xdfe', 'latin1'),
]);

const HTML_ONLY = [
  'From: bob@example.org',
  'Subject: Site down',
  'Message-ID: <html@example.org>',
  'Content-Type: text/html; charset=utf-8',
  '',
  '<html><body><h1>Outage</h1><p>Your API returns <b>502</b> errors.</p></body></html>',
  '',
].join('\r\n');

const WITH_ATTACHMENT = [
  'From: carol@example.net',
  'Subject: Invoice attached',
  'Message-ID: <att@example.net>',
  'Content-Type: multipart/mixed; boundary="m"',
  '',
  '--m',
  'Content-Type: text/plain',
  '',
  'See the attached invoice.',
  '--m',
  'Content-Type: application/pdf; name="invoice.pdf"',
  'Content-Disposition: attachment; filename="invoice.pdf"',
  'Content-Transfer-Encoding: base64',
  '',
  'JVBERi0xLjQK',
  '--m--',
  '',
].join('\r\n');

const NO_TEXT = [
  'From: dave@example.com',
  'Subject: Picture',
  'Content-Type: image/png',
  'Content-Transfer-Encoding: base64',
  '',
  'iVBORw0KGgo=',
  '',
].join('\r\n');

describe.each(modes)('email in (%s)', (mode) => {
  const schema = freshSchema('emailin');
  let emulator: Emulator;
  let instance: Instance;

  beforeAll(async () => {
    emulator = await startEmulator();
    instance = await startInstance({ mode, emulator, schema });
  });
  beforeEach(() => emulator.requests.clear());
  afterAll(async () => {
    await instance?.close();
    await emulator?.close();
    if (mode === 'postgres') await dropSchema(schema);
  });

  const postRaw = (raw: string | Buffer) =>
    request(instance.app)
      .post('/threads')
      .set('content-type', 'message/rfc822')
      .send(Buffer.isBuffer(raw) ? raw : Buffer.from(raw));

  test('when a multipart/alternative quoted-printable message is posted raw, then its text part and headers make the thread', async () => {
    const res = await postRaw(MULTIPART_ALTERNATIVE);

    expect(res.status).toBe(201);
    expect(res.body.inbound).toBe(
      'I was charged twice for invoice INV-2231 — please refund. Café Ann',
    );
    expect(res.body.email).toEqual({
      from: 'Ann Example <ann@example.com>',
      to: 'support@shop.test',
      subject: 'Charged twice',
      message_id: '<m1@mail.example.com>',
      references: ['<a0@mail.example.com>', '<a1@mail.example.com>'],
      attachments: [],
    });
    expect(res.body.status).toBe('awaiting_review');
  });

  test('when a message in ISO-8859-1 is posted raw, then body and subject are decoded', async () => {
    const res = await postRaw(LATIN1);

    expect(res.status).toBe(201);
    expect(res.body.inbound).toBe('Bitte die doppelte Zahlung zurückerstatten. Grüße');
    expect(res.body.email).toMatchObject({
      from: 'Jürgen <juergen@example.de>',
      subject: 'Rückerstattung',
    });
  });

  test('when an HTML-only message is posted raw, then its text is the inbound email', async () => {
    const res = await postRaw(HTML_ONLY);

    expect(res.status).toBe(201);
    expect(res.body.inbound).toContain('Your API returns 502 errors.');
    expect(res.body.inbound).not.toContain('<');
  });

  test('when a message has an attachment, then only its name is kept', async () => {
    const res = await postRaw(WITH_ATTACHMENT);

    expect(res.status).toBe(201);
    expect(res.body.inbound).toBe('See the attached invoice.');
    expect(res.body.email.attachments).toEqual(['invoice.pdf']);
    expect(JSON.stringify(res.body)).not.toContain('JVBERi0');
  });

  test('when headers decode to NUL or line breaks, then the thread keeps them cleaned, as stored', async () => {
    // Encoded-words can carry anything: NUL (=00), which PostgreSQL's jsonb refuses, and CR LF,
    // though a subject is one line.
    const raw = [
      'From: =?utf-8?B?' +
        Buffer.from('Ann\u0000 Example').toString('base64') +
        '?= <ann.nul@example.com>',
      'To: support@shop.test',
      'Subject: =?utf-8?Q?Charged=00_twice!?= =?utf-8?Q?=0D=0Aagain?=',
      'Message-ID: <nul-headers@example.com>',
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="b2"',
      '',
      '--b2',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'Please refund the second charge.',
      '--b2',
      'Content-Type: application/pdf',
      'Content-Disposition: attachment; filename="=?utf-8?Q?inv=00oice.pdf?="',
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.from('%PDF-1.4').toString('base64'),
      '--b2--',
      '',
    ].join('\r\n');

    const res = await postRaw(raw);

    expect(res.status).toBe(201);
    expect(res.body.email).toMatchObject({
      from: 'Ann Example <ann.nul@example.com>',
      subject: 'Charged twice! again',
      attachments: ['invoice.pdf'],
    });
    const stored = await request(instance.app).get(`/threads/${res.body.thread_id}`).expect(200);
    expect(stored.body.email).toEqual(res.body.email);
  });

  test('when a message has no readable text, then 400 says so and no model is called', async () => {
    const res = await postRaw(NO_TEXT);

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'unreadable_email' });
    expect(res.body.detail).toContain('no readable text');
    expect(llmCalls(emulator).total).toBe(0);
  });

  test('when a message has more than 1,000 MIME parts, then 400 unreadable_email, not 500, and no model is called', async () => {
    const res = await postRaw(manyParts(1_001));

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'unreadable_email' });
    expect(res.body.detail).toContain('MIME structure');
    expect(llmCalls(emulator).total).toBe(0);
  });

  test('when the classifier and the drafter run, then they see the sender and the subject', async () => {
    await postRaw(MULTIPART_ALTERNATIVE.replace('<m1@', '<m1-subject@')).expect(201);

    const userTurns = emulator.requests
      .list()
      .map((call) => (call.body as { messages: Array<{ role: string; content: string }> }).messages)
      .map((messages) => messages.find((m) => m.role === 'user')!.content);
    expect(userTurns).toHaveLength(2);
    for (const text of userTurns)
      expect(text).toMatch(/^From: .*Ann Example.*<ann@example\.com>\nSubject: Charged twice\n\n/);
  });

  test('when a raw message whose Message-ID was seen is posted again, then the earlier thread answers 200 without a model call', async () => {
    const raw = MULTIPART_ALTERNATIVE.replace('<m1@', '<m1-again@');
    const first = await postRaw(raw).expect(201);
    emulator.requests.clear();

    const again = await postRaw(raw);

    expect(again.status).toBe(200);
    expect(again.body.thread_id).toBe(first.body.thread_id);
    expect(llmCalls(emulator).total).toBe(0);
  });

  test('when a repeated Message-ID comes with a new Idempotency-Key, then the key wins and a new thread is made', async () => {
    const raw = MULTIPART_ALTERNATIVE.replace('<m1@', '<m1-key@');
    const first = await postRaw(raw).expect(201);

    const keyed = await postRaw(raw).set('Idempotency-Key', 'explicit-key-1');

    expect(keyed.status).toBe(201);
    expect(keyed.body.thread_id).not.toBe(first.body.thread_id);
  });

  test('when JSON carries the email fields, then the thread keeps them normalised', async () => {
    const res = await request(instance.app)
      .post('/threads')
      .send({
        inbound: 'Where is my order?',
        from: 'Eve <eve@example.com>',
        to: 'support@shop.test',
        subject: 'Re: Order 7',
        message_id: 'order7@example.com',
        references: ['<o6@example.com>'],
      });

    expect(res.status).toBe(201);
    expect(res.body.email).toEqual({
      from: 'Eve <eve@example.com>',
      to: 'support@shop.test',
      subject: 'Re: Order 7',
      message_id: '<order7@example.com>',
      references: ['<o6@example.com>'],
      attachments: [],
    });
  });

  test.each([
    ['from', 'not one address', { from: 'not an address' }],
    ['from', 'two addresses', { from: 'a@example.com, b@example.com' }],
    ['to', 'over 320 characters', { to: 'x'.repeat(400) + '@example.com' }],
    ['subject', 'two lines', { subject: 'two\nlines' }],
    ['message_id', 'no @', { message_id: 'no-at-sign' }],
    ['references', '101 ids', { references: Array.from({ length: 101 }, (_, i) => `<r${i}@x.y>`) }],
  ])('when the JSON field %s is invalid (%s), then 400 names it', async (name, _why, fields) => {
    const res = await request(instance.app)
      .post('/threads')
      .send({ inbound: 'Hello', ...fields });

    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain(name);
    expect(llmCalls(emulator).total).toBe(0);
  });

  test('when a raw message is over 1 MB, then 413', async () => {
    const res = await postRaw(`Subject: big\r\n\r\n${'x'.repeat(1024 * 1024 + 10)}`);

    expect(res.status).toBe(413);
  });
});
