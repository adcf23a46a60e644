import OpenAI from 'openai';
import { zodResponseFormat, zodFunction } from 'openai/helpers/zod';
import { z } from 'zod';
import { startEmulator, type Emulator } from '../src/index.js';

let emu: Emulator;
let client: OpenAI;

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  client = new OpenAI({ apiKey: 'test-key', baseURL: `${emu.url}/v1`, maxRetries: 0 });
});
afterAll(() => emu.close());
beforeEach(() => emu.requests.clear());

const invoiceEmail =
  'From: Jane Doe <jane@example.com>\nSubject: Charged twice\n\nHello, I was charged twice for invoice INV-1001 this month. Please sort it out.';

describe('openai SDK: chat completions', () => {
  it('when a plain completion is requested, then the reply quotes the user text and usage is reported', async () => {
    const completion = await client.chat.completions.create({
      model: 'gpt-4.1-mini',
      messages: [
        { role: 'system', content: 'You draft replies to customer emails.' },
        { role: 'user', content: invoiceEmail },
      ],
    });
    const content = completion.choices[0]?.message.content ?? '';
    expect(content).toContain('I was charged twice for invoice INV-1001 this month.');
    expect(content).toMatch(/^Hi Jane,/);
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.model).toBe('gpt-4.1-mini');
    expect(completion.usage?.total_tokens).toBe(
      (completion.usage?.prompt_tokens ?? 0) + (completion.usage?.completion_tokens ?? 0),
    );
  });

  it('when the conversation grows, then prompt tokens grow with it', async () => {
    const short = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'Hi' }],
    });
    const history = Array.from({ length: 30 }, (_, i) => [
      {
        role: 'user' as const,
        content: `Question number ${i} about my account settings and preferences?`,
      },
      {
        role: 'assistant' as const,
        content: `Answer number ${i}: here is what you can do with your settings.`,
      },
    ]).flat();
    const long = await client.chat.completions.create({
      model: 'm',
      messages: [...history, { role: 'user', content: 'Hi' }],
    });
    expect(long.usage?.prompt_tokens).toBeGreaterThan((short.usage?.prompt_tokens ?? 0) * 20);
  });

  it('when parsed with a zod response format, then the result is typed and the enum follows the text', async () => {
    const Triage = z.object({
      category: z.enum(['general', 'billing', 'technical', 'complaint']),
      priority: z.enum(['low', 'normal', 'high']),
      summary: z.string(),
      needs_human: z.boolean(),
      confidence: z.number().min(0).max(1),
      tags: z.array(z.string()),
      reply: z.object({ subject: z.string(), body: z.string() }),
    });
    const completion = await client.chat.completions.parse({
      model: 'gpt-4.1-mini',
      messages: [{ role: 'user', content: 'Our website is down and every page shows error 500!' }],
      response_format: zodResponseFormat(Triage, 'triage'),
    });
    const parsed = completion.choices[0]?.message.parsed;
    expect(parsed?.category).toBe('technical');
    expect(parsed?.priority).toBe('high');
    expect(parsed?.reply.body).toContain('Our website is down and every page shows error 500!');
  });

  it('when tools are offered, then the matching tool is called with arguments from the text', async () => {
    const completion = await client.chat.completions.create({
      model: 'gpt-4.1-mini',
      messages: [{ role: 'user', content: 'Can you check invoice INV-1001 for me?' }],
      tools: [
        zodFunction({
          name: 'get_weather',
          description: 'Weather forecast for a city',
          parameters: z.object({ city: z.string() }),
        }),
        zodFunction({
          name: 'lookup_invoice',
          description: 'Look up an invoice',
          parameters: z.object({ invoiceId: z.string() }),
        }),
      ],
    });
    const call = completion.choices[0]?.message.tool_calls?.[0];
    expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
    expect(call?.type === 'function' && call.function.name).toBe('lookup_invoice');
    expect(call?.type === 'function' && JSON.parse(call.function.arguments)).toEqual({
      invoiceId: 'INV-1001',
    });
  });

  it('when the tool result is sent back, then the answer states it', async () => {
    const completion = await client.chat.completions.create({
      model: 'gpt-4.1-mini',
      messages: [
        { role: 'user', content: 'Can you check invoice INV-1001 for me?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'lookup_invoice', arguments: '{"invoiceId":"INV-1001"}' },
            },
          ],
        },
        {
          role: 'tool',
          tool_call_id: 'call_1',
          content: JSON.stringify({ status: 'overdue', amount_due: 42 }),
        },
      ],
      tools: [
        zodFunction({ name: 'lookup_invoice', parameters: z.object({ invoiceId: z.string() }) }),
      ],
    });
    expect(completion.choices[0]?.message.content).toMatch(/overdue.*amount due 42\.00/);
  });

  it('when reviewer feedback asks for a shorter reply mentioning the refund, then the new draft follows it', async () => {
    const draft = async (extra: string) =>
      (
        await client.chat.completions.create({
          model: 'gpt-4.1-mini',
          messages: [
            { role: 'system', content: 'Write a reply to the customer email.' },
            { role: 'user', content: `${invoiceEmail}${extra}` },
          ],
        })
      ).choices[0]?.message.content ?? '';
    const first = await draft('');
    const revised = await draft('\n\nReviewer feedback: make it shorter and mention the refund.');
    expect(revised.length).toBeLessThan(first.length);
    expect(revised).toContain('the refund');
    expect(first).not.toContain('refund');
  });

  it('when streaming with include_usage, then the chunks rebuild the text and end with usage', async () => {
    const stream = await client.chat.completions.create({
      model: 'gpt-4.1-mini',
      messages: [{ role: 'user', content: 'Is the API down? I get timeouts.' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage: OpenAI.CompletionUsage | null | undefined;
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toContain('Is the API down?');
    expect(finish).toBe('stop');
    expect(usage?.completion_tokens).toBeGreaterThan(0);
  });

  it('when a tool call is streamed, then the SDK assembles the call', async () => {
    const runner = client.chat.completions.stream({
      model: 'gpt-4.1-mini',
      messages: [{ role: 'user', content: 'Is the checkout service down?' }],
      tools: [
        {
          type: 'function',
          function: {
            name: 'check_status',
            description: 'Status of a service',
            parameters: {
              type: 'object',
              properties: { service: { type: 'string' } },
              required: ['service'],
            },
          },
        },
      ],
    });
    const final = await runner.finalChatCompletion();
    const call = final.choices[0]?.message.tool_calls?.[0];
    expect(call?.type === 'function' && JSON.parse(call.function.arguments)).toEqual({
      service: 'checkout',
    });
  });

  it('when models are listed, then the list is returned and the request is logged', async () => {
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toContain('gpt-4.1-mini');
    expect(emu.requests.list()).toEqual([
      expect.objectContaining({
        provider: 'openai',
        method: 'GET',
        path: '/v1/models',
        status: 200,
      }),
    ]);
  });

  it('when a completion is made, then the request log holds its body and model', async () => {
    await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'ping' }],
    });
    const [entry] = emu.requests.list();
    expect(entry).toMatchObject({
      provider: 'openai',
      method: 'POST',
      path: '/v1/chat/completions',
      model: 'gpt-4o-mini',
      status: 200,
    });
    expect(entry?.body).toMatchObject({ messages: [{ role: 'user', content: 'ping' }] });
  });
});
