import type { Schema } from '@google/genai';

type JsonSchema = Record<string, unknown>;

/** Gemini Schema keys that mean the same in JSON Schema and carry over as they are. */
const SAME_KEYS = [
  'description',
  'title',
  'format',
  'enum',
  'default',
  'pattern',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'required',
] as const;

/**
 * A Gemini `Schema` (ADK's tool parameters: upper-case `type`, `nullable`, string integer bounds)
 * as the JSON Schema OpenAI-compatible endpoints expect, without keys JSON Schema has no use for.
 */
export function jsonSchemaOf(schema: Schema): JsonSchema {
  const out: JsonSchema = {};
  const type =
    schema.type && schema.type !== 'TYPE_UNSPECIFIED' ? schema.type.toLowerCase() : undefined;
  if (type) out['type'] = schema.nullable ? [type, 'null'] : type;
  for (const key of SAME_KEYS) {
    const value = schema[key];
    if (value === undefined || value === null) continue;
    // @google/genai types the integer bounds as strings ("1"); JSON Schema wants numbers.
    out[key] = typeof value === 'string' && /^(min|max)[A-Z]/.test(key) ? Number(value) : value;
  }
  if (schema.properties) {
    out['properties'] = Object.fromEntries(
      Object.entries(schema.properties).map(([name, property]) => [name, jsonSchemaOf(property)]),
    );
  }
  if (schema.items) out['items'] = jsonSchemaOf(schema.items);
  if (schema.anyOf) out['anyOf'] = schema.anyOf.map(jsonSchemaOf);
  if (!type && schema.nullable && !schema.anyOf) out['type'] = 'null';
  return out;
}
