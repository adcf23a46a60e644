import { FinishReason, Type } from '@google/genai';
import type OpenAI from 'openai';
import { llmResponseOf, llmResponsesOf } from '../src/llm/openai/chat-response.js';
import { jsonSchemaOf } from '../src/llm/openai/json-schema-of.js';

const chunk = (
  delta: OpenAI.ChatCompletionChunk.Choice.Delta,
  finish: OpenAI.ChatCompletionChunk.Choice['finish_reason'] = null,
): OpenAI.ChatCompletionChunk => ({
  id: 'c',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
});

async function* from<T>(items: T[]): AsyncGenerator<T> {
  yield* items;
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

const usage = { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 };

describe('Chat Completions back to ADK responses', () => {
  it('when text streams in, then each delta is a partial response and the last one holds the whole text, usage and finish reason', async () => {
    const responses = await collect(
      llmResponsesOf(
        from([
          chunk({ role: 'assistant', content: '' }),
          chunk({ content: 'Invoice INV-1001 ' }),
          chunk({ content: 'is open.' }),
          chunk({}, 'stop'),
          { ...chunk({}), choices: [], usage },
        ]),
      ),
    );

    expect(responses).toEqual([
      { content: { role: 'model', parts: [{ text: 'Invoice INV-1001 ' }] }, partial: true },
      { content: { role: 'model', parts: [{ text: 'is open.' }] }, partial: true },
      {
        content: { role: 'model', parts: [{ text: 'Invoice INV-1001 is open.' }] },
        finishReason: FinishReason.STOP,
        usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 5, totalTokenCount: 17 },
        partial: false,
        turnComplete: true,
      },
    ]);
  });

  it('when a tool call streams in pieces, then one final response carries it as a function call', async () => {
    const responses = await collect(
      llmResponsesOf(
        from([
          chunk({
            tool_calls: [
              { index: 0, id: 'call_1', type: 'function', function: { name: 'lookup_invoice' } },
            ],
          }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '{"invoice_' } }] }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: 'id":"INV-1001"}' } }] }),
          chunk({}, 'tool_calls'),
        ]),
      ),
    );

    expect(responses).toHaveLength(1);
    expect(responses[0]?.content?.parts).toEqual([
      { functionCall: { id: 'call_1', name: 'lookup_invoice', args: { invoice_id: 'INV-1001' } } },
    ]);
  });

  it('when a completion was cut by its length, then the finish reason is MAX_TOKENS', () => {
    const response = llmResponseOf({
      id: 'c',
      object: 'chat.completion',
      created: 1,
      model: 'm',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Partly', refusal: null },
          finish_reason: 'length',
          logprobs: null,
        },
      ],
      usage,
    });

    expect(response).toMatchObject({
      content: { parts: [{ text: 'Partly' }] },
      finishReason: FinishReason.MAX_TOKENS,
    });
  });

  it('when the model writes arguments that are not JSON, then the call fails', async () => {
    const responses = llmResponsesOf(
      from([
        chunk({
          tool_calls: [
            { index: 0, id: 'x', function: { name: 'create_ticket', arguments: '{"summ' } },
          ],
        }),
        chunk({}, 'tool_calls'),
      ]),
    );

    await expect(collect(responses)).rejects.toThrow(/create_ticket/);
  });
});

describe("Gemini's schema dialect as JSON Schema", () => {
  it('when a schema uses upper-case types, nullable and string bounds, then standard JSON Schema comes out', () => {
    expect(
      jsonSchemaOf({
        type: Type.OBJECT,
        properties: {
          tags: { type: Type.ARRAY, items: { type: Type.STRING }, maxItems: '3' },
          note: { type: Type.STRING, nullable: true, minLength: '1', example: 'x' },
        },
        required: ['tags'],
        propertyOrdering: ['tags', 'note'],
      }),
    ).toEqual({
      type: 'object',
      properties: {
        tags: { type: 'array', items: { type: 'string' }, maxItems: 3 },
        note: { type: ['string', 'null'], minLength: 1 },
      },
      required: ['tags'],
    });
  });
});
