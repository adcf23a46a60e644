import { z } from 'zod';

export interface OperationSpec {
  summary: string;
  /** Path parameters, as one object schema whose keys are the `{names}` in the path. */
  params?: z.ZodObject;
  query?: z.ZodObject;
  requestBody?: z.ZodType;
  /** Extra request headers, e.g. `Idempotency-Key`. */
  headers?: Record<string, { description: string; required?: boolean }>;
  /** Status → body schema; `null` for a response without a body. */
  responses: Record<number, { description: string; schema: z.ZodType | null }>;
}

export interface OpenApiInput {
  title: string;
  version: string;
  description?: string;
  /** OpenAPI-style paths (`/threads/{thread_id}`) → lowercase method → operation. */
  paths: Record<string, Record<string, OperationSpec>>;
}

const problemSchema = {
  type: 'object',
  required: ['type', 'title', 'status', 'detail', 'code'],
  properties: {
    type: { type: 'string' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    code: { type: 'string' },
    request_id: { type: 'string' },
  },
};

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' });

function parameters(location: 'path' | 'query', schema: z.ZodObject | undefined) {
  if (!schema) return [];
  const shape = jsonSchema(schema, 'input') as {
    properties?: Record<string, unknown>;
    required?: string[];
  };
  return Object.entries(shape.properties ?? {}).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || (shape.required ?? []).includes(name),
    schema: property,
  }));
}

function operation(spec: OperationSpec) {
  const headers = Object.entries(spec.headers ?? {}).map(([name, header]) => ({
    name,
    in: 'header',
    required: header.required ?? false,
    description: header.description,
    schema: { type: 'string' },
  }));
  return {
    summary: spec.summary,
    parameters: [
      ...parameters('path', spec.params),
      ...parameters('query', spec.query),
      ...headers,
    ],
    ...(spec.requestBody
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchema(spec.requestBody, 'input') } },
          },
        }
      : {}),
    responses: Object.fromEntries(
      Object.entries(spec.responses).map(([status, response]) => [
        status,
        {
          description: response.description,
          ...(response.schema
            ? {
                content: {
                  [Number(status) >= 400 ? 'application/problem+json' : 'application/json']: {
                    schema: jsonSchema(response.schema, 'output'),
                  },
                },
              }
            : {}),
        },
      ]),
    ),
  };
}

/** An OpenAPI 3.1 document built from the same zod schemas that validate the requests. */
export function openApiDocument(input: OpenApiInput) {
  return {
    openapi: '3.1.0',
    info: { title: input.title, version: input.version, description: input.description },
    paths: Object.fromEntries(
      Object.entries(input.paths).map(([path, methods]) => [
        path,
        Object.fromEntries(
          Object.entries(methods).map(([method, spec]) => [method, operation(spec)]),
        ),
      ]),
    ),
    components: {
      schemas: { Problem: problemSchema },
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    },
  };
}
