import { readFileSync } from 'node:fs';
import { documentedRequests, type HttpMethod } from '@repo/http-kit';
import { startEmulator, type Emulator } from '@repo/llm-emulator';
import request from 'supertest';
import { CATEGORIES } from '../src/workflow/classification.js';
import { startInstance, type Instance } from './support/harness.js';

const packageVersion = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

interface Operation {
  responses: Record<string, { content: Record<string, { schema: unknown }> }>;
}

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

  test('when /openapi.json is fetched with the token, then it is OpenAPI 3.1 built from the request schemas', async () => {
    const res = await request(instance.app)
      .get('/openapi.json')
      .set('Authorization', 'Bearer secret-token');

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

  test('when the document describes errors and auth, then every error answer is a Problem and the bearer token is required', async () => {
    const doc = (
      await request(instance.app).get('/openapi.json').set('Authorization', 'Bearer secret-token')
    ).body;

    expect(doc.security).toEqual([{ bearer: [] }]);
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.schemas.Problem).toBeDefined();
    const errors = Object.values(doc.paths as Record<string, Record<string, Operation>>)
      .flatMap((methods) => Object.values(methods))
      .flatMap((operation) =>
        Object.entries(operation.responses).filter(([status]) => Number(status) >= 400),
      );
    expect(errors.length).toBeGreaterThan(10);
    for (const [, response] of errors)
      expect(response.content['application/problem+json']?.schema).toEqual({
        $ref: '#/components/schemas/Problem',
      });
  });

  test('when each documented operation is requested with a sample id, then every one is a route (no 404 not_found, no 405)', async () => {
    const doc = (
      await request(instance.app).get('/openapi.json').set('Authorization', 'Bearer secret-token')
    ).body;

    const operations = documentedRequests(doc, 'sample-id');
    const answers = await Promise.all(
      operations.map(async ({ method, path }) => {
        if (path === '/events') {
          // An endless event stream: its status line is the answer (supertest would wait for the end).
          const abort = new AbortController();
          const res = await fetch(`${await instance.listen()}${path}`, {
            headers: { authorization: 'Bearer secret-token' },
            signal: abort.signal,
          });
          abort.abort();
          return { method, path, status: res.status, code: undefined };
        }
        const app = request(instance.app);
        const res = await app[method as HttpMethod](path).set(
          'Authorization',
          'Bearer secret-token',
        );
        return { method, path, status: res.status, code: res.body.code };
      }),
    );

    // 10, GET /events, GET /webhooks/deliveries and POST /webhooks/deliveries/{id}/retry, GET
    // /labels and the help center's five (/kb/articles, /kb/articles/{slug} get, put, delete, /kb/search),
    // GET /guidelines, PATCH and DELETE /guidelines/{id}, GET /quality.
    expect(operations).toHaveLength(23);
    expect(answers.filter((a) => a.status === 405 || a.code === 'not_found')).toEqual([]);
  });

  test('when the mailbox quarantine is asked for, then it is documented, behind the token, and 404 mailbox_off without a mailbox', async () => {
    const doc = (
      await request(instance.app).get('/openapi.json').set('Authorization', 'Bearer secret-token')
    ).body;
    expect(doc.paths['/mailbox/quarantine'].get.responses['200']).toBeDefined();
    expect((await request(instance.app).get('/mailbox/quarantine')).status).toBe(401);
    const off = await request(instance.app)
      .get('/mailbox/quarantine')
      .set('Authorization', 'Bearer secret-token');
    expect(off.status).toBe(404);
    expect(off.body.code).toBe('mailbox_off');
  });

  test('when the document describes the revision rules, then it names the ETag, If-Match, the 412 and the history', async () => {
    const doc = (
      await request(instance.app).get('/openapi.json').set('Authorization', 'Bearer secret-token')
    ).body;

    expect(doc.paths['/threads/{thread_id}'].get.responses['200'].headers.ETag).toMatchObject({
      description: expect.stringContaining('revision'),
    });
    for (const action of ['edit', 'approve', 'reject']) {
      const operation = doc.paths[`/threads/{thread_id}/${action}`].post;
      expect(operation.parameters).toEqual(
        expect.arrayContaining([expect.objectContaining({ name: 'If-Match', in: 'header' })]),
      );
      expect(operation.responses['412'].description).toContain('revision_mismatch');
      expect(operation.responses['409'].description).toContain('revision_mismatch');
      const body = operation.requestBody.content['application/json'].schema;
      expect(JSON.stringify(body)).toContain('"revision"');
    }
    const history = doc.paths['/threads/{thread_id}/history'].get;
    const events = history.responses['200'].content['application/json'].schema.properties.events;
    expect(
      events.items.oneOf.map(
        (event: { properties: { type: { const: string } } }) => event.properties.type.const,
      ),
    ).toEqual([
      'created',
      'classified',
      'drafted',
      'edited',
      'redrafted',
      'approved',
      'rejected',
      'failed',
      'retried',
      'recovered',
      'queued',
      'delivered',
      'logged',
      'no_recipient',
      'delivery_failed',
      'redelivered',
    ]);
  });

  test('when the document is built, then its version is the package version', async () => {
    const doc = (
      await request(instance.app).get('/openapi.json').set('Authorization', 'Bearer secret-token')
    ).body;
    expect(doc.info).toMatchObject({ title: 'email-review', version: packageVersion });
  });

  test('when API_TOKEN is set and /openapi.json is fetched without it, then 401', async () => {
    const res = await request(instance.app).get('/openapi.json');
    expect(res.status).toBe(401);
  });

  test('when API_TOKEN is set, then the review page and its assets stay open (the page asks for the token)', async () => {
    expect((await request(instance.app).get('/')).status).toBe(200);
    expect((await request(instance.app).get('/assets/app.js')).status).toBe(200);
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
