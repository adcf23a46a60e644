import { z } from 'zod';
import { problemSchema } from './errors/problem.js';
import type { ResponseSpec, Route } from './routes/define-route.js';

interface OperationSpec {
  summary: string;
  /** Path parameters, as one object schema whose keys are the `{names}` in the path. */
  params?: z.ZodObject | undefined;
  query?: z.ZodObject | undefined;
  requestBody?: z.ZodType | undefined;
  /** A second body media type, taken as is (RouteSpec `rawBody`). */
  rawBody?: { mediaType: string; description: string } | undefined;
  /** Extra request headers, e.g. `Idempotency-Key`. */
  headers?: Record<string, { description: string; required?: boolean }> | undefined;
  /** Status → body schema; none for a response without a body (errors, 4xx/5xx, always carry a Problem). */
  responses: Record<number, ResponseSpec>;
}

export interface OpenApiInput {
  title: string;
  version: string;
  description?: string;
  /** The routes, each declared once with defineRoute. */
  routes: Route[];
  /** Every operation needs the bearer token: documented as `security` and a 401 on each. */
  auth?: boolean;
}

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

function responseContent(status: number, response: ResponseSpec) {
  const { schema } = response;
  if (status >= 400) {
    return {
      content: {
        'application/problem+json': { schema: schema ? jsonSchema(schema, 'output') : PROBLEM_REF },
      },
    };
  }
  const alternatives = Object.entries(response.alternatives ?? {}).map(([type, media]) => [
    type,
    {
      ...(media.schema ? { schema: jsonSchema(media.schema, 'output') } : {}),
      example: media.example,
    },
  ]);
  const content = Object.fromEntries([
    ...(schema ? [['application/json', { schema: jsonSchema(schema, 'output') }]] : []),
    ...alternatives,
  ]);
  return Object.keys(content).length > 0 ? { content } : {};
}

const responseHeaders = (headers: NonNullable<ResponseSpec['headers']>) =>
  Object.fromEntries(
    Object.entries(headers).map(([name, { description }]) => [
      name,
      { description, schema: { type: 'string' } },
    ]),
  );

/** The answers any route can give, whether or not its declaration lists them. */
function implicitResponses(spec: OperationSpec, auth: boolean): Record<number, ResponseSpec> {
  const responses: Record<number, ResponseSpec> = {};
  if (spec.params || spec.query || spec.requestBody)
    responses[400] = { description: 'Invalid input.' };
  if (spec.requestBody) {
    responses[413] = { description: 'Body too large.' };
    responses[415] = { description: 'Body is not JSON.' };
  }
  if (auth) {
    responses[401] = { description: 'Missing or wrong bearer token.' };
    responses[503] = {
      description:
        "`auth_unavailable`: with JWTs, the identity provider's keys could not be fetched (Retry-After).",
    };
  }
  responses[500] = { description: 'Unexpected error (details only in the log).' };
  return responses;
}

function operation(spec: OperationSpec, auth: boolean) {
  const headers = Object.entries(spec.headers ?? {}).map(([name, header]) => ({
    name,
    in: 'header',
    required: header.required ?? false,
    description: header.description,
    schema: { type: 'string' },
  }));
  const responses = { ...implicitResponses(spec, auth), ...spec.responses };
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
            required: !spec.requestBody.safeParse(undefined).success,
            content: {
              'application/json': { schema: jsonSchema(spec.requestBody, 'input') },
              ...(spec.rawBody
                ? {
                    [spec.rawBody.mediaType]: {
                      schema: {
                        type: 'string',
                        contentMediaType: spec.rawBody.mediaType,
                        description: spec.rawBody.description,
                      },
                    },
                  }
                : {}),
            },
          },
        }
      : {}),
    responses: Object.fromEntries(
      Object.entries(responses).map(([status, response]) => [
        status,
        {
          description: response.description,
          ...(response.headers ? { headers: responseHeaders(response.headers) } : {}),
          ...responseContent(Number(status), response),
        },
      ]),
    ),
  };
}

const operationOf = (route: Route): OperationSpec => ({
  summary: route.summary,
  params: route.params,
  query: route.query,
  requestBody: route.body,
  rawBody: route.rawBody,
  headers: route.headers,
  responses: route.responses,
});

function pathsOf(input: OpenApiInput): Record<string, Record<string, OperationSpec>> {
  const paths: Record<string, Record<string, OperationSpec>> = {};
  for (const route of input.routes) {
    paths[route.path] = { ...paths[route.path], [route.method]: operationOf(route) };
  }
  return paths;
}

/** An OpenAPI 3.1 document built from the same zod schemas that validate the requests. */
export function openApiDocument(input: OpenApiInput) {
  const auth = input.auth ?? false;
  return {
    openapi: '3.1.0' as const,
    info: { title: input.title, version: input.version, description: input.description },
    paths: Object.fromEntries(
      Object.entries(pathsOf(input)).map(([path, methods]) => [
        path,
        Object.fromEntries(
          Object.entries(methods).map(([method, spec]) => [method, operation(spec, auth)]),
        ),
      ]),
    ),
    components: {
      schemas: { Problem: jsonSchema(problemSchema, 'output') },
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    },
    ...(auth ? { security: [{ bearer: [] }] } : {}),
  };
}

export type OpenApiDocument = ReturnType<typeof openApiDocument>;
