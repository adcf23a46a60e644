import request from 'supertest';
import { HttpError, NotReady, READINESS_TIMEOUT_MS } from '../src/index.js';
import { testApp } from './fixtures.js';

describe('health routes', () => {
  test('when the process runs, then /healthz answers 200', async () => {
    const res = await request(testApp()).get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  test('when the readiness check passes, then /readyz answers 200', async () => {
    const res = await request(
      testApp({ readiness: [{ name: 'database', check: async () => {} }] }),
    ).get('/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ready', database: 'ok' });
  });

  test('when the readiness check returns details, then /readyz answers them beside its status', async () => {
    const res = await request(
      testApp({ readiness: [{ name: 'mailbox', check: async () => 'standby' }] }),
    ).get('/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ready', mailbox: 'standby' });
  });

  test('when the readiness check throws, then /readyz answers 503 problem details', async () => {
    const app = testApp({
      readiness: [
        {
          name: 'database',
          check: async () => {
            throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
          },
        },
      ],
    });
    const res = await request(app).get('/readyz');
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('not_ready');
    expect(res.body.database).toBe('failed');
    expect(JSON.stringify(res.body)).not.toContain('ECONNREFUSED');
  });

  test('when one of several checks is not ready, then /readyz answers 503 with every check’s state, the failing one named', async () => {
    const app = testApp({
      readiness: [
        {
          name: 'database',
          check: () => {
            throw new HttpError(503, 'database_unavailable', 'The database is not available.');
          },
        },
        { name: 'mailbox', check: () => 'connected' },
        {
          name: 'help_center',
          check: () => {
            throw new NotReady('loading');
          },
        },
      ],
    });
    const res = await request(app).get('/readyz');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({
      code: 'not_ready',
      database: 'database_unavailable',
      mailbox: 'connected',
      help_center: 'loading',
    });
    expect(res.body.detail).toBe(
      'Not ready: database (database_unavailable), help_center (loading).',
    );
  });

  test('when a check hangs, then /readyz answers 503 within its bound, the check’s state timeout', async () => {
    const app = testApp({
      readiness: [{ name: 'database', check: () => new Promise<void>(() => {}) }],
    });
    const started = Date.now();
    const res = await request(app).get('/readyz');
    expect(res.status).toBe(503);
    expect(res.body.database).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(READINESS_TIMEOUT_MS + 200);
  });

  test('when two checks share a name, or one takes a key of the body, then the app is refused', () => {
    const check = () => {};
    expect(() =>
      testApp({
        readiness: [
          { name: 'database', check },
          { name: 'database', check },
        ],
      }),
    ).toThrow(/database/);
    expect(() => testApp({ readiness: [{ name: 'status', check }] })).toThrow(/status/);
  });
});
