import { readFileSync } from 'node:fs';
import { documentedRequests } from '@repo/http-kit';
import {
  INVOICE_QUESTION,
  startHelpdesk,
  undocumentedResponsesSoFar,
  type HelpdeskUnderTest,
} from './support/harness.js';

// The document cannot drift: every answer this suite saw is documented for its route.
afterAll(async () => {
  expect(await undocumentedResponsesSoFar()).toEqual([]);
});

describe('request validation', () => {
  let helpdesk: HelpdeskUnderTest;

  beforeAll(async () => {
    helpdesk = await startHelpdesk();
  });
  afterAll(() => helpdesk.close());

  const invalidBodies: Array<[string, unknown]> = [
    ['session_id is missing', { message: 'hello' }],
    ['message is missing', { session_id: 's-1' }],
    ['session_id is empty', { session_id: '', message: 'hello' }],
    ['session_id is longer than 128 characters', { session_id: 'a'.repeat(129), message: 'hello' }],
    ['session_id has a space', { session_id: 'a b', message: 'hello' }],
    ['session_id has a slash', { session_id: 'a/b', message: 'hello' }],
    ['session_id is not a string', { session_id: 42, message: 'hello' }],
    ['message is empty', { session_id: 's-1', message: '' }],
    ['message is only whitespace', { session_id: 's-1', message: '   \n ' }],
    ['message is longer than 8000 characters', { session_id: 's-1', message: 'x'.repeat(8001) }],
    ['message is not a string', { session_id: 's-1', message: ['hello'] }],
    ['there is an unknown field', { session_id: 's-1', message: 'hello', user: 'bob' }],
    ['the body is an array', [{ session_id: 's-1', message: 'hello' }]],
    ['the body is a JSON string', 'hello'],
    ['the body is null', null],
  ];

  it.each(invalidBodies)(
    'when %s, then POST /chat answers 400 without calling the model',
    async (_case, body) => {
      helpdesk.emulator.requests.clear();

      const res = await helpdesk.http
        .post('/chat')
        .set('content-type', 'application/json')
        .send(JSON.stringify(body))
        .expect(400);

      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(res.body).toMatchObject({
        status: 400,
        code: expect.any(String),
        detail: expect.any(String),
      });
      expect(helpdesk.modelCalls()).toHaveLength(0);
    },
  );

  it.each([
    ['empty', ''],
    ['only whitespace', '   \n '],
  ])('when the message is %s, then POST /chat answers one error for it', async (_case, message) => {
    const res = await helpdesk.send('s-1', message).expect(400);

    expect(res.body.errors).toEqual([{ path: 'message', message: 'must not be blank' }]);
    expect(res.body.detail).toBe('message: must not be blank');
  });

  it('when the body is not valid JSON, then POST /chat answers 400', async () => {
    const res = await helpdesk.http
      .post('/chat')
      .set('content-type', 'application/json')
      .send('{"session_id": "s-1", "message": ')
      .expect(400);

    expect(res.body.code).toBe('malformed_json');
  });

  it('when there is no body at all, then POST /chat answers 400', async () => {
    await helpdesk.http.post('/chat').expect(400);
  });

  it('when the limits are met exactly, then the message is accepted', async () => {
    const res = await helpdesk.send(
      'a'.repeat(128),
      `${INVOICE_QUESTION} ${'x'.repeat(8000 - INVOICE_QUESTION.length - 1)}`,
    );

    expect(res.status).toBe(200);
  });

  it('when the body is larger than the service accepts, then POST /chat answers 413', async () => {
    const res = await helpdesk.http
      .post('/chat')
      .set('content-type', 'application/json')
      .send(JSON.stringify({ session_id: 's-1', message: 'x'.repeat(200_000) }))
      .expect(413);

    expect(res.body).toMatchObject({ status: 413 });
  });

  it('when the body is not JSON, then POST /chat answers 415', async () => {
    const res = await helpdesk.http
      .post('/chat')
      .set('content-type', 'text/plain')
      .send('session_id=s-1&message=hello')
      .expect(415);

    expect(res.body).toMatchObject({ status: 415 });
  });

  it('when the session id in the path is invalid, then GET and DELETE answer 400', async () => {
    await helpdesk.http.get(`/sessions/${'a'.repeat(129)}`).expect(400);
    await helpdesk.http.get('/sessions/bad%20id').expect(400);
    await helpdesk.http.delete('/sessions/bad%20id').expect(400);
  });

  it('when the session id in the path is not valid percent-encoding, then GET answers 400 with problem details', async () => {
    const res = await helpdesk.http.get('/sessions/%ZZ').expect(400);

    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 400, code: expect.any(String) });
  });

  it('when the body claims Content-Encoding gzip but is not gzip, then POST /chat answers 400 without calling the model', async () => {
    helpdesk.emulator.requests.clear();

    const res = await helpdesk.http
      .post('/chat')
      .set('content-type', 'application/json')
      .set('content-encoding', 'gzip')
      .send(JSON.stringify({ session_id: 's-gzip', message: INVOICE_QUESTION }))
      .expect(400);

    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 400, code: expect.any(String) });
    expect(helpdesk.modelCalls()).toHaveLength(0);
  });

  it('when the method is not supported, then the service answers 405', async () => {
    await helpdesk.http.get('/chat').expect(405);
  });

  it('when GET /openapi.json is called, then it describes the routes from the same schemas', async () => {
    const res = await helpdesk.http.get('/openapi.json').expect(200);

    expect(res.body.openapi).toBe('3.1.0');
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining(['/chat', '/sessions/{session_id}']),
    );
    const body = res.body.paths['/chat'].post.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(['session_id', 'message']);
    expect(body.additionalProperties).toBe(false);
    expect(body.properties.message.maxLength).toBe(8000);
  });

  it('when each documented operation is called with a sample id, then it exists: never 404 not_found nor 405', async () => {
    const document = await helpdesk.document();

    const requests = documentedRequests(document, 'sample-id');
    // POST /widget/sessions, POST /chat, GET and DELETE /sessions/{id}, GET /webhooks/deliveries
    // and POST …/{id}/retry; GET /sessions/{id}/events and the operator console's six; the knowledge
    // base's five (GET /kb/articles, GET, PUT and DELETE /kb/articles/{slug}, GET /kb/search).
    expect(requests).toHaveLength(18);
    const base = await helpdesk.url();
    for (const { method, path } of requests) {
      if (path.endsWith('/events')) {
        // An event stream stays open: its status and headers are the answer.
        const abort = new AbortController();
        const stream = await fetch(`${base}${path}`, { signal: abort.signal });
        abort.abort();
        expect(stream.status).not.toBe(405);
        expect([200, 404]).toContain(stream.status);
        continue;
      }
      const res = await helpdesk.http[method as 'get' | 'post' | 'put' | 'delete'](path);
      expect(res.status).not.toBe(405);
      expect(res.body.code).not.toBe('not_found');
    }
  });

  it('when GET /openapi.json is called, then info.version is the package version and the 401s are documented only with a token', async () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

    const document = await helpdesk.document();

    expect(document.info.version).toBe(version);
    expect(document).not.toHaveProperty('security');
    expect(document.paths['/chat']!['post']!.responses).not.toHaveProperty('401');
  });

  it('when GET /openapi.json is called, then every error answer is a problem, client errors the shared Problem schema', async () => {
    const res = await helpdesk.http.get('/openapi.json').expect(200);

    const chat = res.body.paths['/chat'].post.responses;
    const problemOf = (response: {
      content: Record<string, { schema: Record<string, unknown> }>;
    }) => response.content['application/problem+json']!.schema;
    expect(problemOf(chat['400'])).toEqual({ $ref: '#/components/schemas/Problem' });
    expect(res.body.components.schemas.Problem.required).toEqual(
      expect.arrayContaining(['type', 'title', 'status', 'detail', 'code']),
    );
    // A failed turn says which session, and which ticket it opened before failing.
    expect(Object.keys(problemOf(chat['502']).properties as object)).toEqual(
      expect.arrayContaining(['detail', 'code', 'session_id', 'ticket_id']),
    );
  });
});

describe('bearer authentication', () => {
  let helpdesk: HelpdeskUnderTest;

  beforeAll(async () => {
    helpdesk = await startHelpdesk({ apiToken: 'secret-token' });
  });
  afterAll(() => helpdesk.close());

  it('when API_TOKEN is set and the token is missing or wrong, then the routes answer 401', async () => {
    await helpdesk.send('auth-1', INVOICE_QUESTION).expect(401);
    await helpdesk.http.get('/sessions/auth-1').set('authorization', 'Bearer wrong').expect(401);
  });

  it('when API_TOKEN is set and the token is right, then chat and the OpenAPI document work', async () => {
    await helpdesk
      .send('auth-1', INVOICE_QUESTION)
      .set('authorization', 'Bearer secret-token')
      .expect(200);
    await helpdesk.http
      .get('/openapi.json')
      .set('authorization', 'Bearer secret-token')
      .expect(200);
  });

  it('when API_TOKEN is set, then the document names the bearer scheme and a 401 on every operation', async () => {
    const document = await helpdesk.document();

    expect(document.security).toEqual([{ bearer: [] }]);
    expect(document.components.securitySchemes.bearer).toEqual({ type: 'http', scheme: 'bearer' });
    for (const operations of Object.values(document.paths)) {
      for (const operation of Object.values(operations)) {
        expect(operation.responses).toHaveProperty('401');
      }
    }
  });

  it('when API_TOKEN is set, then the OpenAPI document needs the token and only health routes are open', async () => {
    const res = await helpdesk.http.get('/openapi.json').expect(401);

    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    await helpdesk.http.get('/healthz').expect(200);
    await helpdesk.http.get('/readyz').expect(200);
  });
});
