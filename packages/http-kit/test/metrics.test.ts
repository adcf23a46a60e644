import { pino } from 'pino';
import { collectDefaultMetrics, Registry } from 'prom-client';
import request from 'supertest';
import { z } from 'zod';
import {
  createHttpApp,
  createMetricsRegistry,
  defineRoute,
  HttpError,
  httpServiceEnv,
  metricSample,
  modelCallMetrics,
} from '../src/index.js';

const routes = [
  defineRoute({
    method: 'get',
    path: '/items/{item_id}',
    summary: 'Get an item.',
    params: z.object({ item_id: z.string() }),
    responses: { 200: { description: 'The item.' }, 404: { description: 'Unknown.' } },
    handler: ({ params, res }) => {
      if (params.item_id === 'missing') throw new HttpError(404, 'item_not_found', 'No item.');
      res.json({ item_id: params.item_id });
    },
  }),
];

function metricsApp(registry: Registry, options: { apiToken?: string; public?: boolean } = {}) {
  return createHttpApp({
    name: 'test',
    logger: pino({ level: 'silent' }),
    api: { title: 'items', version: '1', routes },
    metrics: { registry, ...(options.public ? { public: true } : {}) },
    ...(options.apiToken ? { apiToken: options.apiToken } : {}),
  });
}

async function counter(registry: Registry, labels: Record<string, string>): Promise<number> {
  const metric = await registry.getSingleMetric('http_requests_total')!.get();
  const value = metric.values.find((v) =>
    Object.entries(labels).every(([key, label]) => v.labels[key] === label),
  );
  return value?.value ?? 0;
}

describe('GET /metrics', () => {
  test('when requests were answered, then they are counted by method, route template and status', async () => {
    const registry = createMetricsRegistry();
    const app = metricsApp(registry);
    await request(app).get('/items/a1');
    await request(app).get('/items/b2');
    await request(app).get('/items/missing');
    await request(app).get('/nowhere');
    expect(await counter(registry, { route: '/items/{item_id}', status: '200' })).toBe(2);
    expect(await counter(registry, { route: '/items/{item_id}', status: '404' })).toBe(1);
    expect(await counter(registry, { route: 'unmatched', status: '404' })).toBe(1);

    const res = await request(app).get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toContain(
      'http_requests_total{method="GET",route="/items/{item_id}",status="200"} 2',
    );
    expect(res.text).toMatch(/http_request_duration_seconds_count\{[^}]*status="404"[^}]*\} 1/);
    expect(res.text).toContain('process_cpu_user_seconds_total');
  });

  test('when the service has a token, then /metrics needs it', async () => {
    const app = metricsApp(createMetricsRegistry(), { apiToken: 'secret' });
    expect((await request(app).get('/metrics')).status).toBe(401);
    const res = await request(app).get('/metrics').set('authorization', 'Bearer secret');
    expect(res.status).toBe(200);
  });

  test('when metrics are public, then /metrics answers without the token and the API still needs it', async () => {
    const app = metricsApp(createMetricsRegistry(), { apiToken: 'secret', public: true });
    expect((await request(app).get('/metrics')).status).toBe(200);
    expect((await request(app).get('/items/a1')).status).toBe(401);
  });

  test('when metrics are off, then /metrics is an unknown route', async () => {
    const app = createHttpApp({
      name: 'test',
      logger: pino({ level: 'silent' }),
      api: { title: 'items', version: '1', routes },
    });
    expect((await request(app).get('/metrics')).status).toBe(404);
  });
});

describe('model-call metrics', () => {
  test('when calls are recorded, then calls, latency and tokens are exposed by provider, model and outcome', async () => {
    const registry = createMetricsRegistry();
    const record = modelCallMetrics(registry);
    record({
      provider: 'openai',
      model: 'm',
      outcome: 'ok',
      seconds: 0.2,
      inputTokens: 10,
      outputTokens: 3,
    });
    record({
      provider: 'openai',
      model: 'm',
      outcome: 'ok',
      seconds: 0.1,
      inputTokens: 5,
      outputTokens: 2,
    });
    record({ provider: 'openai', model: 'm', outcome: 'error', seconds: 0.05 });

    const text = await registry.metrics();

    const of = { provider: 'openai', model: 'm' };
    expect(metricSample(text, 'llm_calls_total', { ...of, outcome: 'ok' })).toBe(2);
    expect(metricSample(text, 'llm_calls_total', { ...of, outcome: 'error' })).toBe(1);
    expect(metricSample(text, 'llm_call_duration_seconds_count', of)).toBe(3);
    expect(metricSample(text, 'llm_tokens_total', { ...of, direction: 'input' })).toBe(15);
    expect(metricSample(text, 'llm_tokens_total', { ...of, direction: 'output' })).toBe(5);
  });
});

describe('METRICS_PUBLIC', () => {
  const schema = httpServiceEnv(3000);
  test('when unset, then /metrics stays behind the token', () => {
    expect(schema.parse({}).METRICS_PUBLIC).toBe(false);
  });
  test('when true, then /metrics is public', () => {
    expect(schema.parse({ METRICS_PUBLIC: 'true' }).METRICS_PUBLIC).toBe(true);
  });
  test('when neither true nor false, then the env is refused', () => {
    expect(schema.safeParse({ METRICS_PUBLIC: 'yes' }).success).toBe(false);
  });
});

describe('Node’s default metrics (the prom-client patch)', () => {
  test('when a registry is created, then it serves every default metric but the GC duration histogram', async () => {
    const stock = new Registry();
    collectDefaultMetrics({ register: stock });
    const names = async (registry: Registry) =>
      (await registry.getMetricsAsJSON()).map((metric) => metric.name).sort();

    const served = await names(createMetricsRegistry());

    expect(served).toEqual(
      (await names(stock)).filter((name) => name !== 'nodejs_gc_duration_seconds'),
    );
    expect(served).toContain('nodejs_eventloop_lag_seconds');
    expect(served).toContain('process_cpu_user_seconds_total');
  });
});
