import { decide } from '../src/model/decide.js';
import type { JsonSchema, ModelTask, Turn } from '../src/model/task.js';
import { EMAIL_REVIEW_CATEGORIES } from './support/email-review-categories.js';

function task(overrides: Partial<ModelTask> & { user?: string }): ModelTask {
  const turns: Turn[] = overrides.turns ?? [{ role: 'user', text: overrides.user ?? '' }];
  return {
    system: '',
    tools: [],
    toolMode: 'auto',
    allowedTools: [],
    output: { kind: 'text' },
    ...overrides,
    turns,
  };
}

function textOf(t: ModelTask): string {
  const d = decide(t);
  if (d.kind !== 'text') throw new Error(`expected text, got ${JSON.stringify(d)}`);
  return d.text;
}

function jsonOf(t: ModelTask): Record<string, unknown> {
  return JSON.parse(textOf(t)) as Record<string, unknown>;
}

const categorySchema: JsonSchema = {
  type: 'object',
  properties: {
    category: { type: 'string', enum: ['general', 'billing', 'technical', 'complaint'] },
  },
  required: ['category'],
  additionalProperties: false,
};

describe('structured output enum picking', () => {
  it.each([
    ['I was charged twice on invoice INV-1001, please refund me.', 'billing'],
    ['The site is down and I keep getting error 500.', 'technical'],
    ['This is unacceptable, I want to speak to a manager!', 'complaint'],
    ['Hello, what are your opening hours?', 'general'],
  ])('when the text is %j, then the category is %s', (user, expected) => {
    expect(
      jsonOf(task({ user, output: { kind: 'json', schema: categorySchema } }))['category'],
    ).toBe(expected);
  });

  it.each([
    ['I cannot log in to my account, the password reset link never arrives.', 'account'],
    ['Your product is great, one suggestion: a dark mode would be nice.', 'feedback'],
    ['Congratulations winner! Click here to claim your prize.', 'spam'],
    ['I was charged twice for invoice #4411.', 'billing'],
    ['The app crashes with an error on start.', 'technical_support'],
  ])(
    'when the text is %j and the categories are wider, then the category is %s',
    (user, expected) => {
      const schema: JsonSchema = {
        type: 'object',
        properties: {
          category: {
            type: 'string',
            enum: EMAIL_REVIEW_CATEGORIES,
          },
        },
      };
      expect(jsonOf(task({ user, output: { kind: 'json', schema } }))['category']).toBe(expected);
    },
  );

  it('when the schema uses $ref, anyOf with null and bounds, then the value satisfies them', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        triage: { $ref: '#/$defs/Triage' },
        note: { anyOf: [{ type: 'string', maxLength: 10 }, { type: 'null' }] },
        tags: { type: 'array', items: { type: 'string' }, minItems: 2, maxItems: 2 },
      },
      required: ['triage', 'note', 'tags'],
      $defs: {
        Triage: {
          type: 'object',
          properties: {
            priority: { type: 'string', enum: ['low', 'high'] },
            score: { type: 'integer', minimum: 3, maximum: 5 },
          },
          required: ['priority', 'score'],
        },
      },
    };
    const value = jsonOf(
      task({ user: 'URGENT: the API is down for everyone', output: { kind: 'json', schema } }),
    );
    const triage = value['triage'] as { priority: string; score: number };
    expect(triage.priority).toBe('high');
    expect(Number.isInteger(triage.score) && triage.score >= 3 && triage.score <= 5).toBe(true);
    expect(typeof value['note']).toBe('string');
    expect((value['note'] as string).length).toBeLessThanOrEqual(10);
    expect(value['tags']).toHaveLength(2);
  });

  it('when the schema is a Gemini Schema with upper-case types, then the value has the right types', () => {
    const schema: JsonSchema = {
      type: 'OBJECT',
      properties: {
        urgent: { type: 'BOOLEAN' },
        count: { type: 'INTEGER' },
        labels: { type: 'ARRAY', items: { type: 'STRING' }, minItems: '1' },
      },
    };
    const value = jsonOf(
      task({ user: 'urgent: checkout is broken', output: { kind: 'json', schema } }),
    );
    expect(value).toEqual({
      urgent: true,
      count: 1,
      labels: expect.arrayContaining([expect.any(String)]) as unknown,
    });
  });
});

describe('free-text replies', () => {
  const email =
    'From: Jane Doe <jane@example.com>\nSubject: Charged twice\n\nHi, I was charged twice for my subscription this month. Can you fix it?';

  it('when asked to draft a reply, then it greets the sender and quotes the email', () => {
    const reply = textOf(task({ system: 'Draft a reply to the customer email.', user: email }));
    expect(reply).toMatch(/^Hi Jane,/);
    expect(reply).toContain('I was charged twice for my subscription this month.');
  });

  it('when the feedback says "make it shorter", then the reply is shorter than the first draft', () => {
    const first = textOf(task({ system: 'Draft a reply to the customer email.', user: email }));
    const second = textOf(
      task({
        system: 'Draft a reply to the customer email.',
        user: `${email}\n\nReviewer feedback: make it shorter.`,
      }),
    );
    expect(second.length).toBeLessThan(first.length * 0.7);
  });

  it('when the feedback says "mention the refund", then the reply mentions the refund', () => {
    const first = textOf(task({ user: 'My order arrived broken.' }));
    const turns: Turn[] = [
      { role: 'user', text: 'My order arrived broken.' },
      { role: 'assistant', text: first, toolCalls: [] },
      { role: 'user', text: 'Please mention the refund.' },
    ];
    expect(first).not.toMatch(/refund/i);
    expect(textOf(task({ turns }))).toMatch(/the refund/);
  });

  it('when a system prompt talks about feedback in prose, then no feedback is applied', () => {
    const system =
      'Draft a reply to the email. If reviewer feedback is given, follow it; never add or include prices.';
    const plain = textOf(task({ system: 'Draft a reply to the email.', user: email }));
    expect(textOf(task({ system, user: email }))).toBe(plain);
  });

  it('when a later chat message is a new question, then the reply is about it, not the first message', () => {
    const turns: Turn[] = [
      { role: 'user', text: 'My invoice is wrong.' },
      { role: 'assistant', text: 'Sorry to hear that.', toolCalls: [] },
      { role: 'user', text: 'Also, the login page shows an error.' },
    ];
    expect(textOf(task({ turns }))).toContain('the login page shows an error');
  });

  it('when a follow-up question happens to use a feedback word ("more details", "include"), then it is answered as a new question', () => {
    const tools = [
      {
        name: 'lookup_invoice',
        description: 'Look up an invoice by id',
        parameters: { type: 'object', properties: { invoice_id: { type: 'string' } } },
      },
    ];
    const history: Turn[] = [
      { role: 'user', text: 'What is the status of invoice INV-1001?' },
      { role: 'assistant', text: 'Invoice INV-1001 is open.', toolCalls: [] },
    ];
    for (const followUp of [
      'Can you give me more details on invoice INV-1002?',
      'Does invoice INV-1002 include VAT?',
      'What about invoice INV-1002? Please include the due date.',
    ]) {
      expect(
        decide(task({ tools, turns: [...history, { role: 'user', text: followUp }] })),
      ).toEqual({
        kind: 'tool_calls',
        calls: [{ name: 'lookup_invoice', args: { invoice_id: 'INV-1002' } }],
      });
    }
  });

  it('when "make it shorter" follows a draft, then the redraft is a shorter reply to the original message', () => {
    const system = 'Draft a reply to the customer email.';
    const first = textOf(task({ system, user: email }));
    for (const ask of ['make it shorter', 'Can you make it shorter?']) {
      const turns: Turn[] = [
        { role: 'user', text: email },
        { role: 'assistant', text: first, toolCalls: [] },
        { role: 'user', text: ask },
      ];
      const second = textOf(task({ system, turns }));
      expect(second).toMatch(/^Hi Jane,/);
      expect(second.length).toBeLessThan(first.length);
    }
  });

  it('when a chat has several requests, then a revision request revises the latest one, not the first', () => {
    const turns: Turn[] = [
      { role: 'user', text: 'My invoice is wrong.' },
      { role: 'assistant', text: 'Sorry to hear that.', toolCalls: [] },
      { role: 'user', text: 'My order arrived broken.' },
      {
        role: 'assistant',
        text: textOf(task({ user: 'My order arrived broken.' })),
        toolCalls: [],
      },
      { role: 'user', text: 'Please mention the refund.' },
    ];
    const reply = textOf(task({ turns }));
    expect(reply).toMatch(/the refund/);
    expect(reply).toContain('My order arrived broken');
    expect(reply).not.toMatch(/invoice/i);
  });

  it('when a redraft carries "the reviewer\'s instructions", then the new draft is shorter and says what was asked', () => {
    const inbound =
      'Hi,\n\nI was charged twice for invoice #4411 in March. Please refund the duplicate charge.\n\nThanks,\nDana';
    const system = 'You draft replies to customer emails.';
    const first = textOf(task({ system, user: inbound }));
    const turns: Turn[] = [
      { role: 'user', text: inbound },
      { role: 'assistant', text: first, toolCalls: [] },
      {
        role: 'user',
        text: "Please write a new draft. The reviewer's instructions: Shorter, and say the refund takes 5 business days. Also mention the invoice number.",
      },
    ];
    const second = textOf(task({ system, turns }));
    expect(second.length).toBeLessThan(first.length);
    expect(second).toContain('the refund takes 5 business days');
    expect(second).toContain('#4411');
  });

  it('when the same request is sent twice, then the answer is the same', () => {
    const t = task({ user: email, output: { kind: 'json', schema: categorySchema } });
    expect(decide(t)).toEqual(decide(t));
  });
});

describe('tools and agents', () => {
  const tools = [
    {
      name: 'lookup_invoice',
      description: 'Look up an invoice by id',
      parameters: {
        type: 'object',
        properties: { invoice_id: { type: 'string' } },
        required: ['invoice_id'],
      },
    },
    {
      name: 'check_service_status',
      description: 'Check whether a service is down',
      parameters: {
        type: 'object',
        properties: { service: { type: 'string' } },
        required: ['service'],
      },
    },
  ];

  it('when the user asks about an invoice, then it calls the invoice tool with the id from the text', () => {
    expect(decide(task({ user: 'Where is invoice INV-2042?', tools }))).toEqual({
      kind: 'tool_calls',
      calls: [{ name: 'lookup_invoice', args: { invoice_id: 'INV-2042' } }],
    });
  });

  it('when the user asks whether a service is down, then it calls the status tool with that service', () => {
    expect(decide(task({ user: 'Is the dashboard down?', tools }))).toEqual({
      kind: 'tool_calls',
      calls: [{ name: 'check_service_status', args: { service: 'dashboard' } }],
    });
  });

  it('when a tool result follows the latest user message, then it answers with the result and ticket id', () => {
    const turns: Turn[] = [
      { role: 'user', text: 'I want a human!' },
      { role: 'assistant', text: '', toolCalls: [{ name: 'create_ticket', args: {} }] },
      { role: 'tool', name: 'create_ticket', result: { ticket_id: 'T-77', queue: 'humans' } },
    ];
    const answer = textOf(task({ turns, tools }));
    expect(answer).toContain('T-77');
    expect(answer).toContain('humans');
  });

  it('when transfer_to_agent is declared and agents are listed, then it transfers to the best-described agent', () => {
    const system = [
      'You are an agent. Your internal name is "coordinator".',
      'You have a list of other agents to transfer to:',
      '\nAgent name: billing\nAgent description: Invoices and payments\n',
      '\nAgent name: tech\nAgent description: Outages and errors\n',
    ].join('\n');
    const transfer = {
      name: 'transfer_to_agent',
      description: 'Transfer',
      parameters: { type: 'OBJECT', properties: { agentName: { type: 'STRING' } } },
    };
    expect(decide(task({ system, user: 'I get error 500 on login', tools: [transfer] }))).toEqual({
      kind: 'tool_calls',
      calls: [{ name: 'transfer_to_agent', args: { agentName: 'tech' } }],
    });
  });

  it('when tool_choice is none, then it answers in text', () => {
    expect(decide(task({ user: 'Where is invoice INV-1?', tools, toolMode: 'none' })).kind).toBe(
      'text',
    );
  });
});
