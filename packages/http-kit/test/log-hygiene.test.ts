import { Writable } from 'node:stream';
import { pino } from 'pino';
import request from 'supertest';
import { redactUrl } from '../src/redact-url.js';
import { testApp } from './fixtures.js';

function capturedLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

describe('what reaches the log', () => {
  test('when a token is sent in the query string, then the logged URL has it redacted', async () => {
    const { logger, lines } = capturedLogger();
    const app = testApp({ logger, apiToken: 's3cret-token' });
    await request(app).get('/items/7?token=s3cret-token&page=2');
    await request(app)
      .get('/items/7?api_key=k3y-v4lue')
      .set('authorization', 'Bearer s3cret-token');
    const logged = lines.join('\n');
    expect(logged).toContain('/items/7?token=[redacted]&page=2');
    expect(logged).toContain('/items/7?api_key=[redacted]');
    expect(logged).not.toContain('s3cret-token');
    expect(logged).not.toContain('k3y-v4lue');
  });

  test.each([
    ['/a?token=x', '/a?token=[redacted]'],
    ['/a?access_token=x&b=1', '/a?access_token=[redacted]&b=1'],
    ['/a?Password=x', '/a?Password=[redacted]'],
    ['/a?sig=x&x-amz-signature=y', '/a?sig=[redacted]&x-amz-signature=[redacted]'],
    ['/a?page=2&q=token', '/a?page=2&q=token'],
    ['/a?flag', '/a?flag'],
    ['/a', '/a'],
  ])('when the URL is %s, then it is logged as %s', (url, logged) => {
    expect(redactUrl(url)).toBe(logged);
  });
});

describe('content sniffing', () => {
  test('when the service answers JSON or a problem, then the browser is told not to sniff it', async () => {
    const app = testApp();
    const ok = await request(app).post('/echo').send({ name: 'a' });
    const problem = await request(app).get('/items/7');
    expect(ok.headers['x-content-type-options']).toBe('nosniff');
    expect(problem.headers['x-content-type-options']).toBe('nosniff');
  });
});
