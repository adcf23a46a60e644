import { Router } from 'express';
import { pino } from 'pino';
import { z } from 'zod';
import { createHttpApp, HttpError, type HttpAppOptions } from '../src/index.js';

export const echoBody = z.strictObject({
  name: z.string().min(1),
  count: z.number().int().optional(),
});

/** A small service built on http-kit, with one route per kind of outcome. */
export function testApp(options: Partial<HttpAppOptions> = {}) {
  const routes = Router();
  routes.post('/echo', (req, res) => {
    res.json(echoBody.parse(req.body));
  });
  routes.post('/actions/:id/approve', (req, res) => {
    res.json({ id: req.params.id, body: req.body ?? null });
  });
  routes.get('/items/:id', (req) => {
    throw new HttpError(404, 'item_not_found', `No item ${req.params.id}.`, {
      extra: {
        item_id: req.params.id,
      },
    });
  });
  routes.get('/boom', () => {
    throw new Error('database password is hunter2');
  });
  return createHttpApp({
    name: 'test',
    logger: pino({ level: 'silent' }),
    bodyLimit: '1kb',
    routes,
    ...options,
  });
}
