import { startOtlpReceiver, startTracing, type Tracing } from '@repo/http-kit';
import { startEmulator, type Emulator } from '@repo/llm-emulator';
import pg from 'pg';
import request from 'supertest';
import { dropSchema, freshSchema, postgresTestsEnabled, until } from './support/database.js';
import { BILLING_EMAIL } from './support/emails.js';
import { startInstance, TEST_MODEL, type Instance } from './support/harness.js';

const enabled = await postgresTestsEnabled();

// One SDK per process (it registers itself globally): the content setting varies per instance.
let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
let tracing: Tracing;
let emulator: Emulator;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  tracing = await startTracing({ serviceName: 'email-review', endpoint: receiver.url }, { pg });
  emulator = await startEmulator();
});
afterAll(async () => {
  await emulator?.close();
  await tracing?.shutdown();
  await receiver?.close();
});

describe.each([false, true])('traces (OTEL_CAPTURE_CONTENT=%s)', (captureContent) => {
  let instance: Instance;

  beforeAll(async () => {
    instance = await startInstance({
      mode: 'memory',
      emulator,
      tracing: { ...tracing, captureContent },
    });
  });
  afterAll(async () => {
    await instance?.close();
  });

  test('when a thread is created, then one trace nests HTTP → graph → node → model call with the GenAI attributes', async () => {
    const created = await request(instance.app)
      .post('/threads')
      .send({ inbound: BILLING_EMAIL, from: 'ann@example.com' });
    expect(created.status).toBe(201);
    await tracing.flush();

    // This request's: the last one answered.
    const http = receiver.spans.findLast((s) => s.name === 'POST /threads');
    expect(http).toBeDefined();
    // No OTEL_SERVICE_NAME here: the service's own name is the default.
    expect(http?.resource['service.name']).toBe('email-review');
    const trace = receiver.spans.filter((s) => s.traceId === http!.traceId);
    const models = trace.filter((s) => s.name === `chat ${TEST_MODEL}`);
    expect(models).toHaveLength(2);
    // …under the test's own request, a client span (HTTP instrumentation) whose traceparent it sent.
    expect(models.map((s) => receiver.ancestry(s))).toEqual([
      [`chat ${TEST_MODEL}`, 'node classify', 'graph email_review', 'POST /threads', 'POST'],
      [`chat ${TEST_MODEL}`, 'node draft', 'graph email_review', 'POST /threads', 'POST'],
    ]);
    for (const model of models) {
      expect(model.attributes).toMatchObject({
        'gen_ai.system': 'openai',
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': TEST_MODEL,
        'gen_ai.usage.input_tokens': expect.any(Number),
        'gen_ai.usage.output_tokens': expect.any(Number),
      });
    }
    const texts = trace.flatMap((s) => Object.values(s.attributes)).map(String);
    const promptSeen = texts.some((text) => text.includes('charged twice'));
    expect(promptSeen).toBe(captureContent);
    expect(models.every((s) => 'gen_ai.input.messages' in s.attributes)).toBe(captureContent);
  });

  test('when an approved reply is delivered, then its delivery has a span', async () => {
    const created = await request(instance.app)
      .post('/threads')
      .send({ inbound: BILLING_EMAIL, from: 'ann@example.com' });
    const approved = await request(instance.app).post(`/threads/${created.body.thread_id}/approve`);
    expect(approved.status).toBe(200);
    await until(() => instance.transport.delivered.length > 0, 'the delivery');
    await tracing.flush();

    const delivery = receiver.spans.find(
      (s) =>
        s.name === 'deliver smtp' &&
        s.attributes['email_review.thread_id'] === created.body.thread_id,
    );
    expect(delivery?.attributes['email_review.thread_id']).toBe(created.body.thread_id);
  });
});

(enabled ? describe : describe.skip)('traces of database queries (postgres)', () => {
  const schema = freshSchema('tracing');
  let instance: Instance;

  beforeAll(async () => {
    instance = await startInstance({ mode: 'postgres', emulator, schema, tracing });
  });
  afterAll(async () => {
    await instance?.close();
    await dropSchema(schema);
  });

  test('when a thread is created, then its queries are spans of the request’s trace, with the statement and without its values', async () => {
    const created = await request(instance.app)
      .post('/threads')
      .send({ inbound: BILLING_EMAIL, from: 'ann@example.com' });
    expect(created.status).toBe(201);
    await tracing.flush();

    const http = receiver.spans.findLast((s) => s.name === 'POST /threads');
    const queries = receiver.spans.filter(
      (s) => s.traceId === http?.traceId && s.attributes['db.system.name'] === 'postgresql',
    );
    const statements = queries.map((s) => String(s.attributes['db.query.text']));
    expect(
      statements.some((text) => text.includes('INSERT INTO') && text.includes('email_threads')),
    ).toBe(true);
    expect(statements.some((text) => text.includes('charged twice'))).toBe(false);
  });
});
