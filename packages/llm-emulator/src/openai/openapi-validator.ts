import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';

/**
 * OpenAI's OpenAPI document, vendored in this package's `spec/` (see its README for where it came from).
 * `src/openai/` and `dist/openai/` sit at the same depth, so one relative path serves both.
 */
export function openAiSpecPath(): string {
  return fileURLToPath(new URL('../../spec/openai-openapi.yaml', import.meta.url));
}

/** OpenAPI 3.1 schemas with 3.0-style `nullable` mixed in: rewrite refs to $defs and nullable to anyOf-null. */
function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string')
      out[key] = value.replace('#/components/schemas/', '#/$defs/');
    else if (key !== 'nullable' && key !== 'discriminator') out[key] = toJsonSchema(value);
  }
  return (node as Record<string, unknown>)['nullable'] === true
    ? { anyOf: [out, { type: 'null' }] }
    : out;
}

/** The named schemas reachable from `roots`, so unrelated parts of the large document don't need to compile. */
function reachable(schemas: Record<string, unknown>, roots: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const pending = [...roots];
  while (pending.length > 0) {
    const name = pending.pop() as string;
    if (name in out) continue;
    out[name] = schemas[name];
    for (const m of JSON.stringify(schemas[name]).matchAll(/"#\/components\/schemas\/([^"]+)"/g))
      pending.push(m[1] as string);
  }
  return out;
}

/** Checks a value against one schema of the document: the errors as text, or undefined when valid. */
export type OpenAiSchemaCheck = (value: unknown) => string | undefined;

/**
 * Validators for schemas of OpenAI's OpenAPI document (`CreateChatCompletionRequest`,
 * `CreateChatCompletionResponse`, `CreateChatCompletionStreamResponse`, …), for tests that check
 * what goes over the wire has the shape the real API has. Ajv with JSON Schema 2020-12.
 */
export function openAiSchemaChecks<const N extends string>(
  names: readonly N[],
  specPath: string = openAiSpecPath(),
): Record<N, OpenAiSchemaCheck> {
  const spec = parse(readFileSync(specPath, 'utf8')) as {
    components: { schemas: Record<string, unknown> };
  };
  const defs = toJsonSchema(reachable(spec.components.schemas, [...names]));
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addFormat('unixtime', true);
  const checks = {} as Record<N, OpenAiSchemaCheck>;
  for (const name of names) {
    const validate = ajv.compile({ $defs: defs, $ref: `#/$defs/${name}` });
    checks[name] = (value) =>
      validate(value) ? undefined : JSON.stringify(validate.errors, null, 2);
  }
  return checks;
}
