import { z } from 'zod';

export interface OperationSpec {
  summary: string;
  /** Path parameters, as one object schema whose keys are the `{names}` in the path. */
  params?: z.ZodObject;
  query?: z.ZodObject;
  requestBody?: z.ZodType;
  /** Extra request headers, e.g. `Idempotency-Key`. */
  headers?: Record<string, { description: string; required?: boolean }>;
  /** Status → body schema; `null` for a response without a body (errors, 4xx/5xx, always carry a Problem). */
  responses: Record<number, { description: string; schema: z.ZodType | null }>;
}

export interface OpenApiInput {
  title: string;
  version: string;
  description?: string;
  /** OpenAPI-style paths (`/threads/{thread_id}`) → lowercase method → operation. */
  paths: Record<string, Record<string, OperationSpec>>;
}

/** The problem-details body every error answer carries (RFC 9457 plus a stable `code`). */
export const problemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.string(),
    request_id: z.string().optional(),
  })
  .catchall(z.unknown());

const PROBLEM_REF = { $ref: '#/components/schemas/Problem' };

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

function responseContent(status: number, schema: z.ZodType | null) {
  if (status >= 400) {
    return {
      content: {
        'application/problem+json': { schema: schema ? jsonSchema(schema, 'output') : PROBLEM_REF },
      },
    };
  }
  return schema
    ? { content: { 'application/json': { schema: jsonSchema(schema, 'output') } } }
    : {};
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
          ...responseContent(Number(status), response.schema),
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
      schemas: { Problem: jsonSchema(problemSchema, 'output') },
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    },
  };
}
