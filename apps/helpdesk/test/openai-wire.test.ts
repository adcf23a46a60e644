import { openAiSchemaChecks } from '@repo/llm-emulator/openai-spec';
import {
  HUMAN_REQUEST,
  INVOICE_QUESTION,
  OUTAGE_QUESTION,
  startHelpdesk,
  type HelpdeskUnderTest,
} from './support/harness.js';
import { streamChat } from './support/sse-client.js';

const { CreateChatCompletionRequest: checkRequest } = openAiSchemaChecks([
  'CreateChatCompletionRequest',
]);

interface ToolsBody {
  tools?: Array<{ function: { name: string; parameters: Record<string, unknown> } }>;
}

describe('the agents on an OpenAI-compatible endpoint', () => {
  let helpdesk: HelpdeskUnderTest;

  beforeAll(async () => {
    helpdesk = await startHelpdesk({ provider: 'openai' });
  });
  afterAll(() => helpdesk.close());
  beforeEach(() => helpdesk.emulator.requests.clear());

  it('when the three routes run, then every request is a valid CreateChatCompletionRequest', async () => {
    for (const message of [INVOICE_QUESTION, OUTAGE_QUESTION, HUMAN_REQUEST]) {
      await helpdesk.send('wire-routes', message).expect(200);
    }

    expect(checkRequest({ model: 'gpt-4.1-mini', messages: [] })).toBeDefined();
    const calls = helpdesk.modelCalls();
    expect(calls.length).toBe(9);
    for (const call of calls) expect(checkRequest(call.body)).toBeUndefined();
  });

  it('when the three routes are streamed, then every request is a valid streaming CreateChatCompletionRequest', async () => {
    const url = await helpdesk.url();
    for (const message of [INVOICE_QUESTION, OUTAGE_QUESTION, HUMAN_REQUEST]) {
      const stream = await streamChat(url, 'wire-streamed', message);
      expect(stream.events.at(-1)?.event).toBe('done');
    }

    const calls = helpdesk.modelCalls();
    expect(calls.length).toBe(9);
    for (const call of calls) {
      expect(call.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
      expect(checkRequest(call.body)).toBeUndefined();
    }
  });

  it('when the coordinator is called, then transfer_to_agent is declared in standard JSON Schema', async () => {
    await helpdesk.send('wire-transfer', INVOICE_QUESTION).expect(200);

    const [first] = helpdesk.modelCalls();
    const transfer = (first?.body as ToolsBody).tools?.find(
      (t) => t.function.name === 'transfer_to_agent',
    );
    expect(transfer?.function.parameters).toEqual({
      type: 'object',
      properties: { agentName: { type: 'string', description: 'the agent name to transfer to.' } },
      required: ['agentName'],
    });
  });

  it('when a specialist calls its tool, then the result goes back as a tool message answering that call', async () => {
    await helpdesk.send('wire-tool', OUTAGE_QUESTION).expect(200);

    const reply = helpdesk.modelCalls()[2]?.body as {
      messages: Array<{ role: string; tool_call_id?: string; tool_calls?: Array<{ id: string }> }>;
    };
    const call = reply.messages.find((m) => m.tool_calls)?.tool_calls?.[0];
    const result = reply.messages.find((m) => m.role === 'tool');
    expect(call?.id).toEqual(expect.any(String));
    expect(result?.tool_call_id).toBe(call?.id);
  });
});
