import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import OpenAI from 'openai';
import { parse } from 'yaml';
import { startEmulator, type Emulator } from '../src/index.js';

const SPEC_PATH = new URL('../../../../shared/specs/openai-openapi.yaml', import.meta.url);

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

const spec = parse(readFileSync(SPEC_PATH, 'utf8')) as {
  components: { schemas: Record<string, unknown> };
};
const roots = ['CreateChatCompletionResponse', 'CreateChatCompletionStreamResponse'];
const defs = toJsonSchema(reachable(spec.components.schemas, roots)) as Record<string, unknown>;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addFormat('unixtime', true);
const validateResponse = ajv.compile({ $defs: defs, $ref: '#/$defs/CreateChatCompletionResponse' });
const validateChunk = ajv.compile({
  $defs: defs,
  $ref: '#/$defs/CreateChatCompletionStreamResponse',
});

function expectValid(validate: typeof validateResponse, value: unknown): void {
  const ok = validate(value);
  if (!ok)
    throw new Error(`${JSON.stringify(validate.errors, null, 2)}\nfor ${JSON.stringify(value)}`);
}

let emu: Emulator;
let client: OpenAI;

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  client = new OpenAI({ apiKey: 'test-key', baseURL: `${emu.url}/v1`, maxRetries: 0 });
});
afterAll(() => emu.close());

const user = { role: 'user' as const, content: 'I was charged twice for invoice INV-1001.' };
const tool = {
  type: 'function' as const,
  function: {
    name: 'lookup_invoice',
    parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  },
};
const jsonSchemaFormat = {
  type: 'json_schema' as const,
  json_schema: {
    name: 'triage',
    strict: true,
    schema: {
      type: 'object',
      properties: { category: { type: 'string', enum: ['billing', 'other'] } },
      required: ['category'],
      additionalProperties: false,
    },
  },
};

const cases: Array<
  [
    string,
    {
      response_format?: OpenAI.ChatCompletionCreateParams['response_format'];
      tools?: OpenAI.ChatCompletionTool[];
    },
  ]
> = [
  ['plain', {}],
  ['json schema', { response_format: jsonSchemaFormat }],
  ['tool call', { tools: [tool] }],
];

describe('responses validate against the OpenAI OpenAPI document', () => {
  it('when the spec is loaded, then the validators reject a response missing required fields', () => {
    expect(
      validateResponse({
        id: 'x',
        object: 'chat.completion',
        created: 1,
        model: 'm',
        choices: [{ index: 0 }],
      }),
    ).toBe(false);
  });

  it.each(cases)(
    'when a %s completion is returned, then it is a valid CreateChatCompletionResponse',
    async (_name, extra) => {
      const raw = await client.chat.completions
        .create({ model: 'gpt-4.1-mini', messages: [user], ...extra })
        .asResponse();
      expectValid(validateResponse, await raw.json());
    },
  );

  it.each(cases)(
    'when a %s completion is streamed, then every chunk is a valid CreateChatCompletionStreamResponse',
    async (_name, extra) => {
      const stream = await client.chat.completions.create({
        model: 'gpt-4.1-mini',
        messages: [user],
        stream: true,
        stream_options: { include_usage: true },
        ...extra,
      });
      let count = 0;
      for await (const chunk of stream) {
        expectValid(validateChunk, chunk);
        count += 1;
      }
      expect(count).toBeGreaterThan(2);
    },
  );
});
