import { pino } from 'pino';
import request from 'supertest';
import { z } from 'zod';
import {
  createHttpApp,
  defineRoute,
  documentedRequests,
  emptyBody,
  HttpError,
  httpServiceEnv,
  openApiDocument,
  undocumentedResponses,
  type ResponseEvent,
} from '../src/index.js';

const itemParams = z.object({ item_id: z.string().regex(/^[a-z0-9]{1,8}$/) });
const itemSchema = z.object({ item_id: z.string(), name: z.string() });

const routes = [
  defineRoute({
    method: 'get',
    path: '/items/{item_id}',
    summary: 'Get an item.',
    params: itemParams,
    responses: {
      200: { description: 'The item.', schema: itemSchema },
      404: { description: 'Unknown item.' },
    },
    handler: ({ params, res }) => {
      if (params.item_id === 'missing') throw new HttpError(404, 'item_not_found', 'No item.');
      res.json({ item_id: params.item_id, name: 'cup' });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/items/{item_id}/rename',
    summary: 'Rename an item.',
    params: itemParams,
    body: z.strictObject({ name: z.string().min(1) }),
    responses: { 200: { description: 'Renamed.', schema: itemSchema } },
    handler: ({ params, body, res }) => {
      res.json({ item_id: params.item_id, name: body.name });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/items/{item_id}/archive',
    summary: 'Archive an item.',
    params: itemParams,
    body: emptyBody,
    responses: { 204: { description: 'Archived.' } },
    handler: ({ params, res }) => {
      // Not documented on purpose: the drift check must notice it.
      if (params.item_id === 'locked') throw new HttpError(409, 'item_locked', 'Locked.');
      res.status(204).end();
    },
  }),
];

function testApi(options: { apiToken?: string; onResponse?: (event: ResponseEvent) => void }) {
  return createHttpApp({
    name: 'test',
    logger: pino({ level: 'silent' }),
    api: { title: 'items', version: '1.2.3', routes },
    ...options,
  });
}

describe('defineRoute', () => {
  const app = testApi({});

  test('when a request matches a declared route, then the handler gets the parsed input', async () => {
    const res = await request(app).post('/items/a1/rename').send({ name: 'mug' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ item_id: 'a1', name: 'mug' });
  });

  test('when the params break their schema, then 400 validation_failed before the body is read', async () => {
    const res = await request(app).post('/items/BAD!/rename').send({});
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors).toEqual([expect.objectContaining({ path: 'item_id' })]);
  });

  test('when the body breaks its schema, then 400 names the field', async () => {
    const res = await request(app).post('/items/a1/rename').send({ name: '' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ path: 'name' })]);
  });

  test('when a required field is missing, then 400 validation_failed says "`name` is required"', async () => {
    const res = await request(app).post('/items/a1/rename').send({});
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'validation_failed',
      detail: '`name` is required',
      errors: [{ path: 'name', message: '`name` is required' }],
    });
  });

  test('when a route that takes a body gets none, then 400 says a request body is required', async () => {
    const res = await request(app).post('/items/a1/rename');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'validation_failed',
      detail: 'A request body is required',
    });
  });

  test('when a field has the wrong type, then 400 keeps naming the type expected', async () => {
    const res = await request(app).post('/items/a1/rename').send({ name: 42 });
    expect(res.body.detail).toMatch(/^name: .*expected string/);
  });

  test('when an empty-body route gets no body or {}, then it runs; with a field, then 400', async () => {
    expect((await request(app).post('/items/a1/archive')).status).toBe(204);
    expect((await request(app).post('/items/a1/archive').send({})).status).toBe(204);
    const res = await request(app).post('/items/a1/archive').send({ force: true });
    expect(res.status).toBe(400);
  });

  test('when a declared path gets another method, then 405 with Allow', async () => {
    const res = await request(app).delete('/items/a1');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
  });
});

describe('the document of declared routes', () => {
  test('when served, then it lists each route with its schemas and the answers any route can give', async () => {
    const res = await request(testApi({})).get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.info).toMatchObject({ title: 'items', version: '1.2.3' });
    const rename = res.body.paths['/items/{item_id}/rename'].post;
    expect(rename.parameters).toEqual([
      expect.objectContaining({ name: 'item_id', in: 'path', required: true }),
    ]);
    expect(rename.requestBody.required).toBe(true);
    expect(Object.keys(rename.responses).sort()).toEqual(['200', '400', '413', '415', '500']);
    expect(res.body.paths['/items/{item_id}/archive'].post.requestBody.required).toBe(false);
    expect(res.body.security).toBeUndefined();
  });

  test('when the app has a token, then the document says so and lists 401 on every route', async () => {
    const res = await request(testApi({ apiToken: 'secret' }))
      .get('/openapi.json')
      .set('authorization', 'Bearer secret');
    expect(res.body.security).toEqual([{ bearer: [] }]);
    for (const methods of Object.values(res.body.paths) as Array<
      Record<string, { responses: Record<string, unknown> }>
    >) {
      for (const operation of Object.values(methods))
        expect(operation.responses['401']).toBeDefined();
    }
  });
});

describe('undocumentedResponses', () => {
  test('when a route answers a status its declaration does not list, then that response is reported', async () => {
    const events: ResponseEvent[] = [];
    const app = testApi({ onResponse: (event) => events.push(event) });
    await request(app).get('/items/missing');
    await request(app).post('/items/a1/rename').send('not json').type('text/plain');
    await request(app).post('/items/locked/archive');
    await request(app).get('/no/such/route');
    const document = openApiDocument({ title: 'items', version: '1', routes });
    expect(events.map((e) => e.status)).toEqual([404, 415, 409, 404]);
    expect(undocumentedResponses(document, events)).toEqual([
      { method: 'POST', path: '/items/locked/archive', status: 409 },
    ]);
  });

  test('when listing documented requests, then each path parameter gets the sample', () => {
    const document = openApiDocument({ title: 'items', version: '1', routes });
    expect(documentedRequests(document, 'x1')).toEqual([
      { method: 'get', path: '/items/x1' },
      { method: 'post', path: '/items/x1/rename' },
      { method: 'post', path: '/items/x1/archive' },
    ]);
  });
});

describe('httpServiceEnv', () => {
  test('when nothing is set, then the service listens on its default port on all interfaces', () => {
    expect(httpServiceEnv(3001).parse({})).toEqual({
      PORT: 3001,
      HOST: '0.0.0.0',
      LOG_LEVEL: 'info',
      METRICS_PUBLIC: false,
      OTEL_CAPTURE_CONTENT: false,
      TRUST_PROXY: false,
    });
  });

  test('when a port is out of range or the level unknown, then parsing fails', () => {
    expect(httpServiceEnv(1).safeParse({ PORT: '70000' }).success).toBe(false);
    expect(httpServiceEnv(1).safeParse({ LOG_LEVEL: 'loud' }).success).toBe(false);
  });
});
