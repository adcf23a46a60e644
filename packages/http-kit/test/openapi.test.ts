import { z } from 'zod';
import { openApiDocument } from '../src/index.js';

describe('openApiDocument', () => {
  test('when given zod schemas, then it emits an OpenAPI 3.1 document with their JSON schemas', () => {
    const body = z.strictObject({ inbound: z.string().min(1).max(100) });
    const doc = openApiDocument({
      title: 'Demo',
      version: '1.0.0',
      paths: {
        '/threads/{thread_id}': {
          post: {
            summary: 'Create',
            params: z.object({ thread_id: z.string() }),
            requestBody: body,
            responses: {
              201: { description: 'created', schema: z.object({ id: z.string() }) },
              204: { description: 'none', schema: null },
            },
          },
        },
      },
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

describe('openApiDocument error responses', () => {
  test('when an error status has no schema, then it refers to the shared Problem schema', () => {
    const doc = openApiDocument({
      title: 'Demo',
      version: '1.0.0',
      paths: {
        '/x': {
          get: { summary: 'x', responses: { 404: { description: 'missing', schema: null } } },
        },
      },
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
