import { startOtlpReceiver, startTracing, type Tracing } from '@repo/http-kit';
import {
  INVOICE_QUESTION,
  PROVIDERS,
  startHelpdesk,
  type HelpdeskUnderTest,
} from './support/harness.js';

const MODELS = { gemini: 'gemini-2.5-flash', openai: 'gpt-4.1-mini' } as const;
const SYSTEMS = { gemini: 'gcp.gemini', openai: 'openai' } as const;

// One SDK per process (it registers itself globally).
let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
let tracing: Tracing;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  tracing = await startTracing({ serviceName: 'helpdesk', endpoint: receiver.url });
});
afterAll(async () => {
  await tracing?.shutdown();
  await receiver?.close();
});

describe.each(PROVIDERS)('traces (%s)', (provider) => {
  let helpdesk: HelpdeskUnderTest;

  beforeAll(async () => {
    helpdesk = await startHelpdesk({ provider, tracing });
  });
  afterAll(async () => {
    await helpdesk?.close();
  });

  test('when a chat turn runs, then one trace nests HTTP → ADK agent → model call with the GenAI attributes, ADK’s spans joined, and no message text', async () => {
    const res = await helpdesk.send(`trace-${provider}`, INVOICE_QUESTION);
    expect(res.status).toBe(200);
    await tracing.flush();

    // This request's: the last one answered.
    const http = receiver.spans.findLast((s) => s.name === 'POST /chat');
    expect(http).toBeDefined();
    const trace = receiver.spans.filter((s) => s.traceId === http!.traceId);
    const model = MODELS[provider];
    const calls = trace.filter((s) => s.name === `chat ${model}`);
    expect(calls.length).toBe(helpdesk.modelCalls().length);
    const chains = calls.map((call) => receiver.ancestry(call));
    // The coordinator's call, and (after its transfer, inside that call_llm) the billing agent's;
    // the test's own request is the client span (HTTP instrumentation) above the server's.
    expect(chains).toContainEqual([
      `chat ${model}`,
      'call_llm',
      'invoke_agent coordinator',
      'invocation',
      'POST /chat',
      'POST',
    ]);
    expect(chains).toContainEqual([
      `chat ${model}`,
      'call_llm',
      'invoke_agent billing',
      'call_llm',
      'invoke_agent coordinator',
      'invocation',
      'POST /chat',
      'POST',
    ]);
    for (const call of calls)
      expect(call.attributes).toMatchObject({
        'gen_ai.system': SYSTEMS[provider],
        'gen_ai.request.model': model,
        'gen_ai.usage.input_tokens': expect.any(Number),
        'gen_ai.usage.output_tokens': expect.any(Number),
      });
    const tool = trace.find((s) => s.name === 'execute_tool lookup_invoice');
    expect(tool && receiver.ancestry(tool)).toContain('invoke_agent billing');
    const texts = trace.flatMap((s) => Object.values(s.attributes)).map(String);
    expect(texts.filter((text) => text.includes('INV-1001'))).toEqual([]);
  });
});
