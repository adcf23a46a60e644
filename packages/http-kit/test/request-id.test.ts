import request from 'supertest';
import { testApp } from './fixtures.js';

const app = testApp();

describe('request id', () => {
  test('when the client sends x-request-id, then it is echoed back', async () => {
    const res = await request(app).get('/healthz').set('x-request-id', 'client-abc.1');
    expect(res.headers['x-request-id']).toBe('client-abc.1');
  });

  test('when the client sends none, then a fresh uuid is returned', async () => {
    const first = await request(app).get('/healthz');
    const second = await request(app).get('/healthz');
    expect(first.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.headers['x-request-id']).not.toBe(second.headers['x-request-id']);
  });

  test('when the client id is unsafe, then it is replaced', async () => {
    const res = await request(app).get('/healthz').set('x-request-id', 'bad id <script>');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
