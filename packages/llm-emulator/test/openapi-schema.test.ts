import OpenAI from 'openai';
import { startEmulator, type Emulator } from '../src/index.js';
import { openAiSchemaChecks, type OpenAiSchemaCheck } from '../src/openai/openapi-validator.js';

const checks = openAiSchemaChecks([
  'CreateChatCompletionResponse',
  'CreateChatCompletionStreamResponse',
]);
const validateResponse = checks.CreateChatCompletionResponse;
const validateChunk = checks.CreateChatCompletionStreamResponse;

function expectValid(validate: OpenAiSchemaCheck, value: unknown): void {
  const errors = validate(value);
  if (errors) throw new Error(`${errors}\nfor ${JSON.stringify(value)}`);
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
    ).toBeDefined();
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
