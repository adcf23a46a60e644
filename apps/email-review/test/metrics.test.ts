import { metricSample } from '@repo/http-kit';
import { startEmulator, type Emulator } from '@repo/llm-emulator';
import request from 'supertest';
import { dropSchema, freshSchema, testModes, until } from './support/database.js';
import { BILLING_EMAIL } from './support/emails.js';
import { startInstance, TEST_MODEL, type Instance } from './support/harness.js';

const modes = await testModes();
const TOKEN = 'metrics-test-token';
const MODEL = { provider: 'openai', model: TEST_MODEL };

describe.each(modes)('GET /metrics (%s)', (mode) => {
  const schema = freshSchema('metrics');
  let emulator: Emulator;
  let instance: Instance;

  beforeAll(async () => {
    emulator = await startEmulator();
    instance = await startInstance({
      mode,
      emulator,
      schema,
      apiToken: TOKEN,
      maxRetries: 0,
      metrics: {},
    });
  });
  afterAll(async () => {
    await instance?.close();
    await emulator?.close();
    if (mode === 'postgres') await dropSchema(schema);
  });

  const scrape = async () => {
    const res = await request(instance.app).get('/metrics').auth(TOKEN, { type: 'bearer' });
    expect(res.status).toBe(200);
    return res.text;
  };
  const post = (path: string, body: object = {}) =>
    request(instance.app).post(path).auth(TOKEN, { type: 'bearer' }).send(body);

  test('when the token is missing, then /metrics answers 401', async () => {
    const res = await request(instance.app).get('/metrics');
    expect(res.status).toBe(401);
  });

  test('when scraped, then the delivery attempts help names every outcome, logged (no SMTP) included', async () => {
    const help = (await scrape())
      .split('\n')
      .find((line) => line.startsWith('# HELP email_review_delivery_attempts_total '));

    for (const outcome of ['delivered', 'logged', 'deferred', 'failed'])
      expect(help).toContain(outcome);
  });

  test('when a known sequence runs, then every counter moves by exactly its share', async () => {
    const before = await scrape();

    // 1. A thread drafted: two model calls (classify, draft), both answered.
    const created = await post('/threads', { inbound: BILLING_EMAIL, from: 'ann@example.com' });
    expect(created.status).toBe(201);
    const id = created.body.thread_id as string;
    // 2. A thread whose classify call fails (no retries here): one failed call, 502.
    emulator.faults.add({ provider: 'openai', kind: 'status', status: 500, count: 1 });
    const failed = await post('/threads', { inbound: BILLING_EMAIL, from: 'ann@example.com' });
    expect(failed.status).toBe(502);
    // 3. Once approve has committed (held before it answers), a reject of it is refused: 409.
    const hold = instance.gate.holdNext();
    const approving = post(`/threads/${id}/approve`).then((res) => res);
    await hold.entered;
    const busy = await post(`/threads/${id}/reject`);
    hold.release();
    expect(busy.status).toBe(409);
    expect(busy.body.code).toBe('thread_not_awaiting_review');
    expect((await approving).status).toBe(200);
    // 4. The approved reply is delivered once. The attempt counts as the SMTP server answers; the
    // record leaves the queue when its transaction commits, a moment later.
    let text = '';
    await until(async () => {
      text = await scrape();
      return (
        metricSample(text, 'email_review_delivery_attempts_total') -
          metricSample(before, 'email_review_delivery_attempts_total') ===
          1 && metricSample(text, 'email_review_delivery_queue_depth') === 0
      );
    }, 'delivery');

    const moved = (name: string, labels: Record<string, string> = {}) =>
      metricSample(text, name, labels) - metricSample(before, name, labels);
    expect(moved('http_requests_total', { method: 'POST', route: '/threads', status: '201' })).toBe(
      1,
    );
    expect(moved('http_requests_total', { method: 'POST', route: '/threads', status: '502' })).toBe(
      1,
    );
    expect(
      moved('http_requests_total', { route: '/threads/{thread_id}/reject', status: '409' }),
    ).toBe(1);
    expect(
      moved('http_requests_total', { route: '/threads/{thread_id}/approve', status: '200' }),
    ).toBe(1);
    expect(moved('llm_calls_total', { ...MODEL, outcome: 'ok' })).toBe(2);
    expect(moved('llm_calls_total', { ...MODEL, outcome: 'error' })).toBe(1);
    expect(moved('llm_call_duration_seconds_count', MODEL)).toBe(3);
    expect(moved('llm_tokens_total', { ...MODEL, direction: 'input' })).toBeGreaterThan(0);
    expect(moved('llm_tokens_total', { ...MODEL, direction: 'output' })).toBeGreaterThan(0);
    expect(moved('email_review_delivery_attempts_total', { outcome: 'delivered' })).toBe(1);
    expect(moved('email_review_delivery_attempts_total', { outcome: 'failed' })).toBe(0);
    expect(moved('email_review_threads', { status: 'sent' })).toBe(1);
    expect(moved('email_review_threads', { status: 'failed' })).toBe(1);
    expect(moved('email_review_threads', { status: 'awaiting_review' })).toBe(0);
    expect(metricSample(text, 'email_review_delivery_queue_depth')).toBe(0);
  });

  test('when a reply waits for delivery, then the queue depth counts it', async () => {
    const created = await post('/threads', { inbound: BILLING_EMAIL, from: 'ann@example.com' });
    const hold = instance.gate.holdNext();
    const approving = post(`/threads/${created.body.thread_id}/approve`).then((res) => res);
    await hold.entered;
    const depth = metricSample(await scrape(), 'email_review_delivery_queue_depth');
    hold.release();
    await approving;
    // Committed but possibly already being delivered by the worker: at most the one reply.
    expect(depth).toBeLessThanOrEqual(1);
    expect(
      depth + metricSample(await scrape(), 'email_review_delivery_attempts_total'),
    ).toBeGreaterThan(0);
  });

  test('when /metrics is scraped, then Node’s default metrics are there', async () => {
    expect(await scrape()).toContain('process_cpu_user_seconds_total');
  });
});
