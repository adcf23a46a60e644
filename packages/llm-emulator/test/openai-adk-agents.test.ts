import { decide } from '../src/model/decide.js';
import { chatTask, parseChatRequest } from '../src/openai/chat-request.js';

const transferTool = {
  type: 'function',
  function: {
    name: 'transfer_to_agent',
    parameters: {
      type: 'object',
      properties: { agentName: { type: 'string' } },
      required: ['agentName'],
    },
  },
};

const coordinatorSystem = `You are an agent. Your internal name is "coordinator".
You have a list of other agents to transfer to:

Agent name: billing
Agent description: Answers questions about invoices, charges and payments.

Agent name: technical
Agent description: Handles outages, errors and the status of our services.`;

describe("the OpenAI side playing ADK's agents", () => {
  it('when the coordinator is asked about an invoice, then it transfers to billing', () => {
    const task = chatTask(
      parseChatRequest({
        model: 'gpt-4.1-mini',
        messages: [
          { role: 'system', content: coordinatorSystem },
          { role: 'user', content: 'What do I owe on invoice INV-1001?' },
        ],
        tools: [transferTool],
      }),
    );

    expect(decide(task)).toEqual({
      kind: 'tool_calls',
      calls: [{ name: 'transfer_to_agent', args: { agentName: 'billing' } }],
    });
  });

  it("when ADK adds other agents' turns as context parts, then they are not read as the user's question", () => {
    const task = chatTask(
      parseChatRequest({
        model: 'gpt-4.1-mini',
        messages: [
          { role: 'user', content: 'Is the API down?' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'For context:' },
              {
                type: 'text',
                text: '[coordinator] called tool `transfer_to_agent` with parameters: {"agentName":"technical"}',
              },
            ],
          },
        ],
      }),
    );

    expect(task.turns).toEqual([{ role: 'user', text: 'Is the API down?' }]);
  });
});
