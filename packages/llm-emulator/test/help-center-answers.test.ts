import { decide } from '../src/model/decide.js';
import type { ModelTask, ToolSpec, Turn } from '../src/model/task.js';

// As helpdesk declares them on the Gemini wire (upper-case types).
const searchTool: ToolSpec = {
  name: 'search_help_center',
  description:
    'Searches the help center’s articles and returns the passages that best answer a question.',
  parameters: {
    type: 'OBJECT',
    properties: { query: { type: 'STRING', maxLength: 500 } },
    required: ['query'],
  },
};
const invoiceTool: ToolSpec = {
  name: 'lookup_invoice',
  description:
    'Looks up an invoice by its id and returns its amount, currency, status and due date.',
  parameters: {
    type: 'OBJECT',
    properties: { invoice_id: { type: 'STRING' } },
    required: ['invoice_id'],
  },
};
const statusTool: ToolSpec = {
  name: 'check_service_status',
  description: 'Tells whether a service is operational, degraded or in an outage, with a message.',
  parameters: {
    type: 'OBJECT',
    properties: { service: { type: 'STRING' } },
    required: ['service'],
  },
};

const task = (turns: Turn[], tools: ToolSpec[]): ModelTask => ({
  system: '',
  turns,
  tools,
  toolMode: 'auto',
  allowedTools: [],
  output: { kind: 'text' },
});

const SHIPPING = 'How long does shipping take?';

describe('help center answers', () => {
  it('when a question matches no other tool and search_help_center is declared, then it searches with the question', () => {
    expect(decide(task([{ role: 'user', text: SHIPPING }], [statusTool, searchTool]))).toEqual({
      kind: 'tool_calls',
      calls: [{ name: 'search_help_center', args: { query: SHIPPING } }],
    });
  });

  it('when a billing question gives no invoice id and the help center is there, then it searches instead of asking for the number', () => {
    const decision = decide(
      task([{ role: 'user', text: 'What is your refund window?' }], [invoiceTool, searchTool]),
    );
    expect(decision).toMatchObject({ kind: 'tool_calls', calls: [{ name: 'search_help_center' }] });
  });

  it('when the question names an invoice, then lookup_invoice is still called', () => {
    const decision = decide(
      task(
        [{ role: 'user', text: 'What do I owe on invoice INV-1001?' }],
        [invoiceTool, searchTool],
      ),
    );
    expect(decision).toMatchObject({ kind: 'tool_calls', calls: [{ name: 'lookup_invoice' }] });
  });

  it('when the search returned passages, then it answers from the first and cites its slug', () => {
    const decision = decide(
      task(
        [
          { role: 'user', text: SHIPPING },
          { role: 'assistant', text: '', toolCalls: [{ name: 'search_help_center', args: {} }] },
          {
            role: 'tool',
            name: 'search_help_center',
            result: {
              query: SHIPPING,
              passages: [
                {
                  slug: 'shipping-times',
                  title: 'Shipping times',
                  heading: 'Standard shipping',
                  text: 'Orders ship within **2 business days**. Delivery in the EU takes 3–5 days. Express is extra.',
                },
              ],
            },
          },
        ],
        [statusTool, searchTool],
      ),
    );
    expect(decision).toEqual({
      kind: 'text',
      text: expect.stringContaining(
        'Orders ship within 2 business days. Delivery in the EU takes 3–5 days. [kb:shipping-times]',
      ),
    });
  });

  it('when the search found nothing, then it says it does not know and offers a ticket, citing nothing', () => {
    const decision = decide(
      task(
        [
          { role: 'user', text: 'Do you sell zeppelins?' },
          { role: 'assistant', text: '', toolCalls: [{ name: 'search_help_center', args: {} }] },
          {
            role: 'tool',
            name: 'search_help_center',
            result: { query: 'Do you sell zeppelins?', passages: [], message: 'No article.' },
          },
        ],
        [statusTool, searchTool],
      ),
    );
    expect(decision.kind).toBe('text');
    const text = (decision as { text: string }).text;
    expect(text).toMatch(/^I don't know/);
    expect(text).toContain('I can open a ticket');
    expect(text).not.toContain('[kb:');
  });
});
