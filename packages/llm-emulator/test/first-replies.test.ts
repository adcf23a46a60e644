import { decide } from '../src/model/decide.js';
import type { ToolSpec } from '../src/model/task.js';
import {
  CLASSIFICATION,
  answerAfter,
  classify,
  draftFor,
  task,
  textOf,
} from './support/first-replies.js';

const LOOKUP_INVOICE: ToolSpec = {
  name: 'lookup_invoice',
  description:
    'Looks up an invoice by its id and returns its amount, currency, status and due date.',
  parameters: {
    type: 'object',
    properties: { invoice_id: { type: 'string', description: 'The invoice id, e.g. INV-1001.' } },
    required: ['invoice_id'],
  },
};

describe('the replies a new user meets first', () => {
  test('when a tool result ends with a full stop, then the answer has no ".."', () => {
    const answer = answerAfter('check_service_status', {
      found: true,
      service: 'api',
      status: 'operational',
      message: 'All API endpoints are responding normally.',
    });
    expect(answer).toContain('All API endpoints are responding normally.');
    expect(answer).not.toContain('..');
  });

  test('when an email opens with a very long sentence, then the draft quotes it cut with one ellipsis, no ".."', () => {
    const draft = draftFor(`Hello, ${'my dashboard shows the wrong totals '.repeat(8)}today.`);
    expect(draft).toContain('…"');
    expect(draft).not.toContain('..');
  });

  test('when a ticket is opened, then the answer says in the first person that a colleague will contact the user', () => {
    const answer = answerAfter('create_ticket', {
      ticket_id: 'TCK-AB12CD34',
      status: 'open',
      priority: 'high',
      summary: 'I am furious, get me a human now!',
      message: 'Ticket TCK-AB12CD34 was created; a human agent will contact the customer.',
    });
    expect(answer).toContain('I have opened ticket TCK-AB12CD34 for you with high priority.');
    expect(answer).toContain('I have asked a colleague to contact you.');
    expect(answer).not.toMatch(/the customer|human agent|get me a human/);
  });

  test('when an invoice question gives no invoice number, then the model asks for it instead of calling the tool with an invented id', () => {
    const decision = decide(
      task([{ role: 'user', text: 'I have a question about my invoice.' }], {
        system: 'You are the billing specialist.',
        tools: [LOOKUP_INVOICE],
      }),
    );
    expect(decision).toEqual({
      kind: 'text',
      text: 'Could you tell me the invoice number? Then I can look it up for you.',
    });
  });

  test('when the invoice number is given, then the tool is called with it', () => {
    const decision = decide(
      task([{ role: 'user', text: 'What is the status of invoice INV-1003?' }], {
        tools: [LOOKUP_INVOICE],
      }),
    );
    expect(decision).toEqual({
      kind: 'tool_calls',
      calls: [{ name: 'lookup_invoice', args: { invoice_id: 'INV-1003' } }],
    });
  });

  test('when an email asks about opening hours, then it is classified as the catch-all category, not billing', () => {
    expect(classify('Hi, what are your opening hours on Saturday?').category).toBe('other');
    const generalFirst = {
      ...CLASSIFICATION,
      properties: {
        ...CLASSIFICATION.properties,
        category: { type: 'string', enum: ['billing', 'technical', 'general'] },
      },
    };
    const answer = JSON.parse(
      textOf(
        task([{ role: 'user', text: 'What are your opening hours?' }], {
          output: { kind: 'json', schema: generalFirst },
        }),
      ),
    ) as { category: string };
    expect(answer.category).toBe('general');
  });

  test.each([
    ['I was charged twice for invoice INV-1001.', 'billing', 'a billing matter'],
    [
      'The API answers 500 errors since this morning.',
      'technical_support',
      'a technical support matter',
    ],
  ])(
    'when %s is classified, then the summary names the category chosen (%s)',
    (email, category, words) => {
      const classification = classify(email);
      expect(classification.category).toBe(category);
      expect(classification.summary).toContain(`about ${words}:`);
    },
  );

  test('when the category is the catch-all, then the summary names no category', () => {
    const { category, summary } = classify('Hi, what are your opening hours on Saturday?');
    expect(category).toBe('other');
    expect(summary).toBe('The customer writes: "Hi, what are your opening hours on Saturday?"');
  });

  test('when the email has a From header with a name, then the draft greets the sender by it', () => {
    const draft = draftFor(
      'From: Maria Lopez <maria@example.com>\nSubject: Opening hours\n\nWhat are your opening hours on Saturday?',
    );
    expect(draft).toMatch(/^Hi Maria,\n/);
  });
});
