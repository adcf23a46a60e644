import request from 'supertest';
import { testApp } from './fixtures.js';

describe('health routes', () => {
  test('when the process runs, then /healthz answers 200', async () => {
    const res = await request(testApp()).get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  test('when the readiness check passes, then /readyz answers 200', async () => {
    const res = await request(testApp({ readiness: async () => {} })).get('/readyz');
    expect(res.status).toBe(200);
  });

  test('when the readiness check returns details, then /readyz answers them beside its status', async () => {
    const res = await request(testApp({ readiness: async () => ({ mailbox: 'standby' }) })).get(
      '/readyz',
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ready', mailbox: 'standby' });
  });

  test('when the readiness check throws, then /readyz answers 503 problem details', async () => {
    const app = testApp({
      readiness: async () => {
        throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
      },
    });
    const res = await request(app).get('/readyz');
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('not_ready');
    expect(JSON.stringify(res.body)).not.toContain('ECONNREFUSED');
  });
});
