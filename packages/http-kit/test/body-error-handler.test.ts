import express, { type ErrorRequestHandler } from 'express';
import { pino } from 'pino';
import request from 'supertest';
import { createHttpApp } from '../src/index.js';

/** A JSON-RPC route's own answer to a body that is not JSON; everything else passes on. */
const rpcParseErrors: ErrorRequestHandler = (error: { type?: unknown }, req, res, next) => {
  if (req.path !== '/rpc' || error.type !== 'entity.parse.failed') return next(error);
  res.status(400).json({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
};

const routes = express.Router();
routes.post('/rpc', (req, res) => {
  res.json({ jsonrpc: '2.0', id: req.body.id, result: 'ok' });
});
routes.post('/other', (_req, res) => {
  res.json({ ok: true });
});

const app = createHttpApp({
  name: 'body-error-handler-test',
  logger: pino({ level: 'silent' }),
  bodyLimit: '1kb',
  routes,
  bodyErrorHandler: rpcParseErrors,
});

const malformed = (path: string) =>
  request(app).post(path).set('content-type', 'application/json').send('{"id": ');

describe('bodyErrorHandler', () => {
  test('when a body on its route is not JSON, then it answers in the route protocol', async () => {
    const res = await malformed('/rpc').expect(400);

    expect(res.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
  });

  test('when a body elsewhere is not JSON, then the problem details answer as before', async () => {
    const res = await malformed('/other').expect(400);

    expect(res.body).toMatchObject({ code: 'malformed_json' });
  });

  test('when a body on its route is too large, then what it passes on is still a 413 problem', async () => {
    const res = await request(app)
      .post('/rpc')
      .send({ id: 1, pad: 'x'.repeat(2_000) })
      .expect(413);

    expect(res.body).toMatchObject({ code: 'payload_too_large' });
  });
});
