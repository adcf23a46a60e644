import { z } from 'zod';
import { defineRoute, openApiDocument } from '../src/index.js';

const noop = () => undefined;

describe('openApiDocument', () => {
  test('when given routes with zod schemas, then it emits an OpenAPI 3.1 document with their JSON schemas', () => {
    const doc = openApiDocument({
      title: 'Demo',
      version: '1.0.0',
      routes: [
        defineRoute({
          method: 'post',
          path: '/threads/{thread_id}',
          summary: 'Create',
          params: z.object({ thread_id: z.string() }),
          body: z.strictObject({ inbound: z.string().min(1).max(100) }),
          responses: {
            201: { description: 'created', schema: z.object({ id: z.string() }) },
            204: { description: 'none' },
          },
          handler: noop,
        }),
      ],
    });
    expect(doc.openapi).toBe('3.1.0');
    const op = doc.paths['/threads/{thread_id}']!.post!;
    expect(op.parameters).toEqual([
      expect.objectContaining({ name: 'thread_id', in: 'path', required: true }),
    ]);
    expect(op.requestBody!.content['application/json'].schema).toMatchObject({
      type: 'object',
      properties: { inbound: { type: 'string', minLength: 1, maxLength: 100 } },
      additionalProperties: false,
    });
    expect(op.responses['204']).toEqual({ description: 'none' });
  });
});

describe('openApiDocument alternative media types', () => {
  test('when a response has an alternative media type, then it is documented beside the JSON body', () => {
    const doc = openApiDocument({
      title: 'Demo',
      version: '1.0.0',
      routes: [
        defineRoute({
          method: 'post',
          path: '/chat',
          summary: 'Chat',
          responses: {
            200: {
              description: 'The reply, or its events',
              schema: z.object({ reply: z.string() }),
              alternatives: {
                'text/event-stream': {
                  schema: z.object({ event: z.string(), data: z.unknown() }),
                  example: 'event: done\nid: 1\ndata: {"reply":"hi"}\n\n',
                },
              },
            },
          },
          handler: noop,
        }),
      ],
    });
    const content = (
      doc.paths['/chat']!.post!.responses['200'] as { content: Record<string, unknown> }
    ).content;
    expect(Object.keys(content)).toEqual(['application/json', 'text/event-stream']);
    expect(content['text/event-stream']).toMatchObject({
      schema: { type: 'object', required: ['event', 'data'] },
      example: expect.stringContaining('event: done'),
    });
  });
});

describe('openApiDocument response headers', () => {
  test('when a response names headers, then each is documented on that response, an error too', () => {
    const doc = openApiDocument({
      title: 'Demo',
      version: '1.0.0',
      routes: [
        defineRoute({
          method: 'get',
          path: '/things/{id}',
          summary: 'Get',
          responses: {
            200: {
              description: 'The thing',
              schema: z.object({ id: z.string() }),
              headers: { ETag: { description: 'Its revision.' } },
            },
            412: { description: 'Stale', headers: { ETag: { description: 'The current one.' } } },
          },
          handler: noop,
        }),
      ],
    });
    const responses = doc.paths['/things/{id}']!.get!.responses as Record<
      string,
      { headers?: unknown; content?: Record<string, unknown> }
    >;
    expect(responses['200']!.headers).toEqual({
      ETag: { description: 'Its revision.', schema: { type: 'string' } },
    });
    expect(responses['412']!.headers).toEqual({
      ETag: { description: 'The current one.', schema: { type: 'string' } },
    });
    expect(Object.keys(responses['412']!.content!)).toEqual(['application/problem+json']);
  });
});

describe('openApiDocument error responses', () => {
  test('when an error status has no schema, then it refers to the shared Problem schema', () => {
    const doc = openApiDocument({
      title: 'Demo',
      version: '1.0.0',
      routes: [
        defineRoute({
          method: 'get',
          path: '/x',
          summary: 'x',
          responses: { 404: { description: 'missing' } },
          handler: noop,
        }),
      ],
    });
    expect(doc.paths['/x']!.get!.responses['404']).toEqual({
      description: 'missing',
      content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
    });
    expect(doc.components.schemas.Problem).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['type', 'title', 'status', 'detail', 'code']),
    });
  });
});
