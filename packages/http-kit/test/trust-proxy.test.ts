import request from 'supertest';
import { createHttpApp, createLogger, defineRoute, httpServiceEnv } from '../src/index.js';

const whereFrom = defineRoute({
  method: 'get',
  path: '/ip',
  summary: 'The address the request is taken to come from.',
  responses: { 200: { description: 'The address.' } },
  handler: ({ req, res }) => {
    res.json({ ip: req.ip });
  },
});

const ipSeen = async (trustProxy: ReturnType<typeof env>['TRUST_PROXY']) => {
  const app = createHttpApp({
    name: 'test',
    logger: createLogger({ name: 'test', level: 'silent' }),
    trustProxy,
    api: { title: 'test', version: '1', routes: [whereFrom] },
  });
  const answer = await request(app)
    .get('/ip')
    .set('x-forwarded-for', '198.51.100.7, 203.0.113.9')
    .expect(200);
  return (answer.body as { ip: string }).ip;
};

const env = (TRUST_PROXY?: string) => httpServiceEnv(1).parse({ TRUST_PROXY });

describe('TRUST_PROXY', () => {
  test('when it is unset, then the address is the connection’s and X-Forwarded-For is ignored', async () => {
    expect(env().TRUST_PROXY).toBe(false);
    expect(await ipSeen(env().TRUST_PROXY)).toMatch(/127\.0\.0\.1$/);
  });

  test('when it counts one proxy, then the address is the one that proxy saw', async () => {
    expect(env('1').TRUST_PROXY).toBe(1);
    expect(await ipSeen(env('1').TRUST_PROXY)).toBe('203.0.113.9');
    expect(await ipSeen(env('2').TRUST_PROXY)).toBe('198.51.100.7');
  });

  test('when it lists the proxies, then addresses they forward are believed, up to the first other one', async () => {
    expect(env('loopback, 10.0.0.0/8 ,203.0.113.9').TRUST_PROXY).toEqual([
      'loopback',
      '10.0.0.0/8',
      '203.0.113.9',
    ]);
    expect(await ipSeen(env('loopback').TRUST_PROXY)).toBe('203.0.113.9');
    expect(await ipSeen(env('loopback,203.0.113.9').TRUST_PROXY)).toBe('198.51.100.7');
  });

  test('when it is anything else, then start-up refuses it', () => {
    for (const bad of ['true', 'yes', '-1', '1.5', '10.0.0.0/33', '300.1.1.1', 'loopback, nope']) {
      expect(() => env(bad)).toThrow(/TRUST_PROXY|proxy/);
    }
  });
});
