import { pino } from 'pino';
import request from 'supertest';
import { z } from 'zod';
import { createHttpApp, defineRoute, openApiDocument } from '../src/index.js';

const notes = defineRoute({
  method: 'post',
  path: '/notes',
  summary: 'Add a note, as JSON or as plain text.',
  body: z.strictObject({ text: z.string().min(1) }),
  rawBody: { mediaType: 'text/plain', description: 'The note itself.' },
  responses: { 201: { description: 'Added.' } },
  handler: ({ body, raw, res }) => {
    res.status(201).json({ text: raw ? raw.toString('utf8') : body!.text, raw: Boolean(raw) });
  },
});

const app = createHttpApp({
  name: 'raw-body-test',
  logger: pino({ level: 'silent' }),
  rawBodyTypes: ['text/plain'],
  bodyLimit: '1kb',
  api: { title: 'notes', version: '1', routes: [notes] },
});

describe('raw bodies (rawBodyTypes and a route rawBody)', () => {
  test('when a declared raw media type is posted, then the handler gets it as a Buffer', async () => {
    const res = await request(app).post('/notes').set('content-type', 'text/plain').send('hello');

    expect(res.status).toBe(201);
    expect(res.body).toEqual({ text: 'hello', raw: true });
  });

  test('when JSON is posted to the same route, then its schema parses it as before', async () => {
    const res = await request(app).post('/notes').send({ text: 'hi' });

    expect(res.body).toEqual({ text: 'hi', raw: false });
  });

  test('when another media type is posted, then 415 names the accepted ones', async () => {
    const res = await request(app).post('/notes').set('content-type', 'text/csv').send('a,b');

    expect(res.status).toBe(415);
    expect(res.body.detail).toContain('application/json or text/plain');
  });

  test('when a raw body is over the limit, then 413', async () => {
    const res = await request(app)
      .post('/notes')
      .set('content-type', 'text/plain')
      .send('x'.repeat(2048));

    expect(res.status).toBe(413);
  });

  test('when the document is built, then the request body lists both media types', () => {
    const document = openApiDocument({ title: 'notes', version: '1', routes: [notes] });
    const content = (
      document.paths['/notes']!.post as { requestBody: { content: Record<string, unknown> } }
    ).requestBody.content;

    expect(Object.keys(content)).toEqual(['application/json', 'text/plain']);
  });
});
