import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { testApp } from './fixtures.js';

const app = testApp();

function expectProblem(res: request.Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({ status, code, type: `urn:problem-type:${code}` });
  expect(typeof res.body.title).toBe('string');
  expect(typeof res.body.detail).toBe('string');
  expect(res.body.request_id).toBe(res.headers['x-request-id']);
}

describe('errors as problem details', () => {
  test('when the body is larger than the limit, then 413', async () => {
    const res = await request(app)
      .post('/echo')
      .set('content-type', 'application/json')
      .send(JSON.stringify({ name: 'x'.repeat(2000) }));
    expectProblem(res, 413, 'payload_too_large');
    // 2 011 bytes of JSON against the fixture's "1kb".
    expect(res.body.detail).toBe('The body is 1.96 KB; the limit is 1 KB.');
  });

  test('when a chunked body (no Content-Length) passes the limit, then 413 names the limit', async () => {
    const res = await new Promise<{ status: number; body: { detail: string } }>(
      (resolve, reject) => {
        const server = app.listen(0, '127.0.0.1', () => {
          const { port } = server.address() as AddressInfo;
          const req = httpRequest(
            {
              port,
              method: 'POST',
              path: '/echo',
              headers: { 'content-type': 'application/json' },
            },
            (response) => {
              let text = '';
              response.on('data', (chunk: Buffer) => (text += chunk.toString()));
              response.on('end', () => {
                server.close();
                resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) });
              });
            },
          );
          req.on('error', reject);
          req.write(`{"name":"${'x'.repeat(1500)}`);
          req.end('"}');
        });
      },
    );
    expect(res.status).toBe(413);
    expect(res.body.detail).toBe('The body is over the limit of 1 KB.');
  });

  test('when the body is not JSON by content type, then 415', async () => {
    const res = await request(app).post('/echo').set('content-type', 'text/plain').send('name=x');
    expectProblem(res, 415, 'unsupported_media_type');
  });

  test('when a POST has no body at all, then it reaches the route', async () => {
    const res = await request(app).post('/actions/a1/approve');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: 'a1', body: null });
  });

  test('when the JSON is malformed, then 400 malformed_json', async () => {
    const res = await request(app)
      .post('/echo')
      .set('content-type', 'application/json')
      .send('{"name":');
    expectProblem(res, 400, 'malformed_json');
  });

  test('when the body fails its schema, then 400 lists the failing fields', async () => {
    const res = await request(app).post('/echo').send({ name: '', extra: true });
    expectProblem(res, 400, 'validation_failed');
    const paths = res.body.errors.map((e: { path: string }) => e.path);
    expect(paths).toEqual(expect.arrayContaining(['name', '(body)']));
  });

  test('when the path is unknown, then 404', async () => {
    expectProblem(await request(app).get('/nowhere'), 404, 'not_found');
  });

  test('when the method is wrong on a known path, then 405 with Allow', async () => {
    const res = await request(app).delete('/echo');
    expectProblem(res, 405, 'method_not_allowed');
    expect(res.headers.allow).toBe('POST');
  });

  test('when a route throws an HttpError, then its status, code and extra fields are answered', async () => {
    const res = await request(app).get('/items/42');
    expectProblem(res, 404, 'item_not_found');
    expect(res.body.item_id).toBe('42');
  });

  test('when a route throws unexpectedly, then 500 with a generic body and no internals', async () => {
    const res = await request(app).get('/boom');
    expectProblem(res, 500, 'internal_error');
    expect(JSON.stringify(res.body)).not.toMatch(/hunter2|at .*\.ts|Error:/);
  });
});

describe('client errors raised by Express itself', () => {
  test('when the path is not valid percent-encoding, then 400 problem details, not 500', async () => {
    const res = await request(app).get('/items/%ZZ');
    expectProblem(res, 400, 'bad_request');
  });

  test('when the body claims gzip but is not, then a 4xx problem, not 500', async () => {
    const res = await request(app)
      .post('/echo')
      .set('content-type', 'application/json')
      .set('content-encoding', 'gzip')
      .send('{"name":"a"}');
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  });
});
