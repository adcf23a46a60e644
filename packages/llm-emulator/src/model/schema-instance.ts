import { bestMatch, isCatchAll, relevance } from './intents.js';
import { contentWords } from './text-index.js';
import { stringHint, type ValueContext } from './string-hints.js';

type Schema = Record<string, unknown>;

const MAX_DEPTH = 8;

function asSchema(value: unknown): Schema {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Schema) : {};
}

function num(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

function resolveRef(schema: Schema, root: Schema): Schema {
  let current = schema;
  for (let hops = 0; typeof current['$ref'] === 'string' && hops < 20; hops++) {
    const ref = current['$ref'] as string;
    if (!ref.startsWith('#')) return {};
    const target = ref
      .slice(1)
      .split('/')
      .filter(Boolean)
      .reduce<unknown>(
        (node, key) => asSchema(node)[key.replace(/~1/g, '/').replace(/~0/g, '~')],
        root,
      );
    current = {
      ...asSchema(target),
      ...Object.fromEntries(Object.entries(current).filter(([k]) => k !== '$ref')),
    };
  }
  return current;
}

function isNullSchema(s: Schema): boolean {
  const t = s['type'];
  return typeof t === 'string' && t.toLowerCase() === 'null';
}

/** The concrete type to produce; Gemini spells types in upper case and uses `nullable`. */
function typeOf(schema: Schema): string | undefined {
  const t = schema['type'];
  if (Array.isArray(t))
    return (t.find((x) => String(x).toLowerCase() !== 'null') as string | undefined)?.toLowerCase();
  if (typeof t === 'string' && t !== 'TYPE_UNSPECIFIED') return t.toLowerCase();
  if (schema['properties']) return 'object';
  if (schema['items']) return 'array';
  return undefined;
}

/**
 * Picks the enum value that best matches the user's text; when nothing matches, the catch-all value
 * (`other`, `general`…) if there is one, else the first.
 */
export function pickEnum(values: unknown[], ctx: ValueContext, hint?: string): unknown {
  if (hint !== undefined && values.includes(hint)) return hint;
  const { index } = bestMatch(values.map(String), ctx.text);
  if (index >= 0) return values[index];
  return values.find((value) => isCatchAll(String(value))) ?? values[0];
}

function fitString(value: string, schema: Schema): string {
  const format = typeof schema['format'] === 'string' ? schema['format'] : undefined;
  let out = value;
  if (format === 'email' && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(out)) out = 'customer@example.com';
  if (format === 'date-time') out = '2025-01-01T09:00:00Z';
  if (format === 'date') out = '2025-01-01';
  if (format === 'time') out = '09:00:00';
  if (format === 'uri' || format === 'url') out = 'https://example.com/';
  if (format === 'uuid') out = '00000000-0000-4000-8000-000000000000';
  const min = num(schema['minLength']) ?? 0;
  const max = num(schema['maxLength']);
  while (out.length < min)
    out = `${out}${out ? ' ' : ''}Thank you.`.slice(0, Math.max(min, out.length + 1));
  if (max !== undefined && out.length > max) {
    const cut = out.slice(0, max);
    const space = cut.lastIndexOf(' ');
    out = space >= min && space > 0 ? cut.slice(0, space) : cut;
  }
  if (typeof schema['pattern'] === 'string') {
    try {
      if (!new RegExp(schema['pattern']).test(out))
        out = value.match(new RegExp(schema['pattern']))?.[0] ?? out;
    } catch {
      // An invalid or unsupported pattern: keep the plain value.
    }
  }
  return out;
}

function numberFor(name: string, schema: Schema, ctx: ValueContext, integer: boolean): number {
  const lo =
    num(schema['minimum']) ?? (num(schema['exclusiveMinimum']) ?? -Infinity) + (integer ? 1 : 0.01);
  const hi =
    num(schema['maximum']) ?? (num(schema['exclusiveMaximum']) ?? Infinity) - (integer ? 1 : 0.01);
  let value: number;
  if (/confidence|probability|score|certainty/i.test(name))
    value = hi <= 1 || !Number.isFinite(hi) ? 0.9 : Math.round(hi * 0.9);
  else if (/amount|price|total|cost|sum/i.test(name))
    value = Number(
      /\$?\b(\d+(?:\.\d+)?)\b/.exec(ctx.userText.replace(/[A-Za-z]+-\d+/g, ''))?.[1] ?? 100,
    );
  else value = 1;
  value = Math.min(Math.max(value, lo), hi);
  if (!Number.isFinite(value)) value = Number.isFinite(lo) ? lo : 0;
  return integer ? Math.round(value) : value;
}

function arrayFor(name: string, schema: Schema, ctx: ValueContext, depth: number): unknown[] {
  const items = resolveRef(asSchema(schema['items']), ctx.root);
  const min = num(schema['minItems']) ?? 0;
  const max = num(schema['maxItems']) ?? Infinity;
  const wanted = Math.min(Math.max(min, 1), max);
  if (Array.isArray(items['enum'])) {
    const ranked = [...items['enum']].sort(
      (a, b) => relevance(String(b), ctx.text) - relevance(String(a), ctx.text),
    );
    return ranked.slice(0, Math.max(wanted, Math.min(min, ranked.length)));
  }
  if (typeOf(items) === 'string' && /tag|keyword|topic|label/i.test(name)) {
    const words = [...new Set(contentWords(ctx.userText))].slice(
      0,
      Math.min(Math.max(min, 3), max),
    );
    while (words.length < min) words.push(`item${words.length + 1}`);
    return words.map((w) => fitString(w, items));
  }
  return Array.from({ length: wanted }, () => generateValue(items, ctx, name, depth + 1));
}

/** A value valid against `schema` (JSON Schema or Gemini Schema) that fits the user's text. */
export function generateValue(
  rawSchema: unknown,
  ctx: ValueContext,
  name = '',
  depth = 0,
): unknown {
  let schema = resolveRef(asSchema(rawSchema), ctx.root);
  if ('const' in schema) return schema['const'];
  const union = (schema['anyOf'] ?? schema['oneOf']) as unknown[] | undefined;
  if (Array.isArray(union) && union.length > 0) {
    const options = union.map((o) => resolveRef(asSchema(o), ctx.root));
    const chosen =
      depth >= MAX_DEPTH ? options.find(isNullSchema) : options.find((o) => !isNullSchema(o));
    return generateValue(chosen ?? options[0], ctx, name, depth + 1);
  }
  if (Array.isArray(schema['allOf'])) {
    schema = (schema['allOf'] as unknown[]).reduce<Schema>(
      (acc, part) => {
        const p = resolveRef(asSchema(part), ctx.root);
        return {
          ...acc,
          ...p,
          properties: { ...asSchema(acc['properties']), ...asSchema(p['properties']) },
        };
      },
      { ...schema, allOf: undefined },
    );
  }
  if (Array.isArray(schema['enum'])) return pickEnum(schema['enum'], ctx);
  const type = typeOf(schema);
  if (
    depth >= MAX_DEPTH &&
    (schema['nullable'] === true ||
      (Array.isArray(schema['type']) && schema['type'].includes('null')))
  )
    return null;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const outer = ctx.category;
      for (const [key, prop] of Object.entries(asSchema(schema['properties']))) {
        out[key] = generateValue(prop, ctx, key, depth + 1);
        if (/categor/i.test(key) && typeof out[key] === 'string') ctx.category = out[key];
      }
      ctx.category = outer;
      return out;
    }
    case 'array':
      return depth >= MAX_DEPTH ? [] : arrayFor(name, schema, ctx, depth);
    case 'integer':
      return numberFor(name, schema, ctx, true);
    case 'number':
      return numberFor(name, schema, ctx, false);
    case 'boolean':
      return name !== '' && relevance(name, ctx.text) > 0;
    case 'null':
      return null;
    default:
      return fitString(stringHint(name, ctx), schema);
  }
}
