import { startEmulator, type Emulator } from '@repo/llm-emulator';
import request from 'supertest';
import { CATEGORIES } from '../src/workflow/classification.js';
import { startInstance, type Instance } from './support/harness.js';

describe('OpenAPI document and bearer auth', () => {
  let emulator: Emulator;
  let instance: Instance;

  beforeAll(async () => {
    emulator = await startEmulator();
    instance = await startInstance({ mode: 'memory', emulator, apiToken: 'secret-token' });
  });
  afterAll(async () => {
    await instance?.close();
    await emulator?.close();
  });

  test('when /openapi.json is fetched, then it is OpenAPI 3.1 built from the request schemas, without a token', async () => {
    const res = await request(instance.app).get('/openapi.json');

    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining([
        '/threads',
        '/threads/{thread_id}',
        '/threads/{thread_id}/edit',
        '/threads/{thread_id}/approve',
        '/threads/{thread_id}/reject',
        '/threads/{thread_id}/retry',
      ]),
    );
    const create = res.body.paths['/threads'].post;
    const inbound = create.requestBody.content['application/json'].schema.properties.inbound;
    expect(inbound).toMatchObject({ type: 'string', maxLength: 100_000 });
    expect(create.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'Idempotency-Key', in: 'header' })]),
    );
    const thread = create.responses['201'].content['application/json'].schema;
    expect(thread.properties.status.enum).toEqual([
      'drafting',
      'awaiting_review',
      'sent',
      'rejected',
      'failed',
    ]);
    expect(thread.properties.classification.anyOf[0].properties.category.enum).toEqual([
      ...CATEGORIES,
    ]);
  });

  test('when API_TOKEN is set and a request has no token, then 401', async () => {
    const res = await request(instance.app).get('/threads');
    expect(res.status).toBe(401);
  });

  test('when API_TOKEN is set and the request carries it, then the API answers', async () => {
    const res = await request(instance.app)
      .get('/threads')
      .set('Authorization', 'Bearer secret-token');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ items: [], next_cursor: null });
  });
});
