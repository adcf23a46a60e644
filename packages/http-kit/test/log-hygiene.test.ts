import { Writable } from 'node:stream';
import { Router } from 'express';
import { pino } from 'pino';
import { HttpError } from '../src/index.js';
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

describe('one access line per request', () => {
  const linesOf = (lines: string[]) =>
    lines.map(
      (line) =>
        JSON.parse(line) as {
          level: number;
          msg: string;
          problem?: string;
          res?: { status: number };
          err?: { stack?: string };
        },
    );

  test('when a request is rejected, then its one log line is the access line, with its status and problem code', async () => {
    const { logger, lines } = capturedLogger();
    const app = testApp({ logger });

    await request(app).get('/items/7').expect(404);
    await request(app).post('/echo').send({ name: '' }).expect(400);
    await request(app).delete('/echo').expect(405);

    expect(linesOf(lines).map((line) => [line.msg, line.res?.status, line.problem])).toEqual([
      ['request completed', 404, 'item_not_found'],
      ['request completed', 400, 'validation_failed'],
      ['request completed', 405, 'method_not_allowed'],
    ]);
  });

  test('when a dependency is away (503), then one access line with the problem code, and no error of pino-http’s making', async () => {
    const { logger, lines } = capturedLogger();
    const routes = Router().get('/away', () => {
      throw new HttpError(503, 'database_unavailable', 'The database is away.', {
        headers: { 'Retry-After': '2' },
      });
    });
    const app = testApp({ logger, routes });

    await request(app).get('/away').expect(503);

    const logged = linesOf(lines);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ res: { status: 503 }, problem: 'database_unavailable' });
    expect(logged[0]).not.toHaveProperty('err');
  });

  test('when a route throws unexpectedly, then an error line with the stack, and the access line with internal_error', async () => {
    const { logger, lines } = capturedLogger();
    const app = testApp({ logger });

    await request(app).get('/boom').expect(500);

    const logged = linesOf(lines);
    expect(logged).toHaveLength(2);
    const [failure, access] = logged;
    expect(failure).toMatchObject({
      level: 50,
      msg: 'unexpected error',
      problem: 'internal_error',
    });
    expect(failure?.err?.stack).toContain('hunter2');
    expect(access).toMatchObject({ res: { status: 500 }, problem: 'internal_error' });
    expect(access).not.toHaveProperty('err');
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

describe('quiet pages and readiness polls', () => {
  const levelsOf = (lines: string[]) =>
    lines.map((line) => {
      const parsed = JSON.parse(line) as { level: number; msg: string; err?: { stack?: string } };
      return { level: parsed.level, msg: parsed.msg, stack: parsed.err?.stack };
    });

  test('when a page and its assets are fetched, and fetched again (304), then their access lines are at debug, and an API answer stays at info', async () => {
    const { logger, lines } = capturedLogger();
    const pages = Router();
    pages.get('/', (_req, res) => void res.type('html').send('<p>inbox</p>'));
    pages.get('/inbox.js', (_req, res) => void res.type('js').send('void 0;'));
    pages.get('/inbox.css', (_req, res) => void res.type('css').send('p{}'));
    pages.get('/logo.svg', (_req, res) => void res.type('svg').send('<svg/>'));
    const app = testApp({ logger, configure: (served) => void served.use(pages) });
    for (const path of ['/', '/inbox.js', '/inbox.css', '/logo.svg'])
      expect((await request(app).get(path)).status).toBe(200);
    const etag = (await request(app).get('/inbox.js')).headers.etag as string;
    expect((await request(app).get('/inbox.js').set('if-none-match', etag)).status).toBe(304);
    await request(app).post('/echo').send({ name: 'a' });

    expect(levelsOf(lines)).toEqual([{ level: 30, msg: 'request completed', stack: undefined }]);
  });

  test('when the readiness check throws a known 503 (the database away or not set up yet), then the poll logs nothing at info and no stack', async () => {
    const { logger, lines } = capturedLogger();
    const app = testApp({
      logger,
      readiness: [
        {
          name: 'database',
          check: async () => {
            throw new HttpError(503, 'database_unavailable', 'The database is not available.');
          },
        },
      ],
    });
    expect((await request(app).get('/readyz')).status).toBe(503);
    expect(lines).toEqual([]);
  });

  test('when the readiness check fails unexpectedly, then one warning says why', async () => {
    const { logger, lines } = capturedLogger();
    const app = testApp({
      logger,
      readiness: [
        {
          name: 'mailbox',
          check: async () => {
            throw new Error('mailbox broke');
          },
        },
      ],
    });
    expect((await request(app).get('/readyz')).status).toBe(503);
    expect(levelsOf(lines)).toMatchObject([{ level: 40, msg: 'readiness check failed' }]);
  });
});
