import { decide } from '../src/model/decide.js';
import type { ToolSpec } from '../src/model/task.js';
import {
  answerAfter,
  classify,
  draftFor,
  DRAFT_SYSTEM,
  task,
  textOf,
} from './support/first-replies.js';

// Issue 46: the demo's canned answers that read like a broken product on its first day.
// helpdesk's tool, as ADK declares it.
const CHECK_SERVICE_STATUS: ToolSpec = {
  name: 'check_service_status',
  description: 'Tells whether a service is operational, degraded or in an outage, with a message.',
  parameters: {
    type: 'object',
    properties: {
      service: {
        type: 'string',
        description: 'The service to check: one of api, dashboard, email, billing, storage.',
      },
    },
    required: ['service'],
  },
};

describe('spam', () => {
  test.each([
    'BUY CHEAP WATCHES NOW!!!',
    'Subject: Limited offer\n\nCHEAP REPLICA WATCHES, 90% OFF, ORDER TODAY!!!',
    'Make money fast from home, click here to start earning $5000 a week.',
  ])('when the email is %j, then it is classified spam with low urgency', (email) => {
    expect(classify(email)).toMatchObject({ category: 'spam', urgency: 'low' });
  });

  test('when the email is shouted spam, then the draft neither apologises nor promises a senior colleague', () => {
    const draft = draftFor('BUY CHEAP WATCHES NOW!!!');
    expect(draft).not.toMatch(/sorry|apolog|frustration|senior/i);
  });

  test('when an angry customer shouts a real complaint, then it stays a complaint with high urgency', () => {
    expect(
      classify('THIS IS UNACCEPTABLE!!! I want to speak to a manager about my order now!'),
    ).toMatchObject({ category: 'complaint', urgency: 'high' });
  });
});

describe('sales and pricing questions', () => {
  test.each([
    'Do you offer a discount for nonprofits?',
    'Subject: Pricing\n\nWhat does the enterprise plan cost for 50 seats?',
  ])('when the email is %j, then it is classified sales', (email) => {
    expect(classify(email).category).toBe('sales');
  });

  test('when the email asks about pricing, then the draft does not speak of a charge on the account', () => {
    const draft = draftFor('Subject: Nonprofit pricing\n\nDo you offer a discount for nonprofits?');
    expect(draft).not.toMatch(/charge|your account/i);
    expect(draft).toMatch(/pricing|offer|plan/i);
  });

  test('when a customer disputes a charge, then it is still billing', () => {
    expect(classify('You charged me twice for invoice INV-1001, please refund me.').category).toBe(
      'billing',
    );
  });
});

describe('a vague outage question', () => {
  test('when the customer asks "is something down?", then the specialist asks which service, naming the known ones, and calls no tool', () => {
    const decision = decide(
      task([{ role: 'user', text: 'is something down?' }], {
        system: 'You answer technical questions.',
        tools: [CHECK_SERVICE_STATUS],
      }),
    );
    expect(decision).toEqual({
      kind: 'text',
      text: 'Which service do you mean? I can check api, dashboard, email, billing or storage.',
    });
  });

  test('when the customer names the service, then the tool is called with it', () => {
    expect(
      decide(
        task([{ role: 'user', text: 'Is the dashboard down?' }], {
          tools: [CHECK_SERVICE_STATUS],
        }),
      ),
    ).toEqual({
      kind: 'tool_calls',
      calls: [{ name: 'check_service_status', args: { service: 'dashboard' } }],
    });
  });
});

describe('answers after a tool call read like a person wrote them', () => {
  test('when an invoice is found, then one sentence states it from the result', () => {
    const answer = answerAfter('lookup_invoice', {
      found: true,
      invoice_id: 'INV-1001',
      customer: 'Acme GmbH',
      amount: 1250,
      currency: 'EUR',
      status: 'open',
      issued_on: '2025-01-05',
      due_on: '2025-02-04',
    });
    expect(answer).toBe(
      'Invoice INV-1001 for Acme GmbH is open: 1250.00 EUR, issued on 5 January 2025, due on 4 February 2025. Is there anything else I can help with?',
    );
  });

  test('when a service status is found, then the answer says it in the first person with its message', () => {
    const answer = answerAfter('check_service_status', {
      found: true,
      service: 'api',
      status: 'operational',
      message: 'All API endpoints are responding normally.',
    });
    expect(answer).toBe(
      'I have checked the api service: it is operational. All API endpoints are responding normally. Is there anything else I can help with?',
    );
  });

  test('when the invoice is not found, then the answer says so plainly with the tool hint', () => {
    const answer = answerAfter('lookup_invoice', {
      found: false,
      invoice_id: 'INV-9999',
      message: 'No invoice with id INV-9999. Invoice ids look like INV-1001.',
    });
    expect(answer).toBe(
      'I could not find invoice INV-9999. Invoice ids look like INV-1001. Is there anything else I can help with?',
    );
  });

  test('when the service is unknown, then the answer names the services it can check', () => {
    const answer = answerAfter('check_service_status', {
      found: false,
      service: 'login',
      known_services: ['api', 'dashboard', 'email'],
      message: 'No service named "login". Known services: api, dashboard, email.',
    });
    expect(answer).toBe(
      'I could not find a service called "login". I can check api, dashboard or email. Is there anything else I can help with?',
    );
  });

  test.each([
    ['lookup_invoice', { invoice_id: 'INV-1', customer: 'Acme', status: 'paid' }],
    ['check_service_status', { service: 'api', status: 'operational' }],
  ])('when %s answers, then no tool name or "key: value" list shows', (name, result) => {
    const answer = answerAfter(name, result);
    expect(answer).not.toContain(name);
    expect(answer).not.toMatch(/Result:|invoice id:|customer:|status:/);
  });
});

describe("the team's own signature", () => {
  // The line support-profile's draft prompt ends with when a profile sets a signature.
  const SIGNED_SYSTEM = `${DRAFT_SYSTEM}
End the reply with this signature, exactly as written:
Kind regards,
Maria Lopez
Northwind customer care

The email was classified as category sales, urgency low. Summary: x`;
  const SIGNATURE = 'Kind regards,\nMaria Lopez\nNorthwind customer care';
  const EMAIL = 'Do you ship to Norway?';

  test('when the draft prompt gives a signature, then the draft ends with it instead of "Support Team"', () => {
    const draft = textOf(task([{ role: 'user', text: EMAIL }], { system: SIGNED_SYSTEM }));
    expect(draft.endsWith(`\n\n${SIGNATURE}`)).toBe(true);
    expect(draft).not.toContain('Support Team');
  });

  test('when the draft is redrafted shorter, then the new draft keeps the signature once', () => {
    const first = textOf(task([{ role: 'user', text: EMAIL }], { system: SIGNED_SYSTEM }));
    const second = textOf(
      task(
        [
          { role: 'user', text: EMAIL },
          { role: 'assistant', text: first, toolCalls: [] },
          {
            role: 'user',
            text: "Please write a new draft. The reviewer's instructions: make it shorter",
          },
        ],
        { system: SIGNED_SYSTEM },
      ),
    );
    expect(second.endsWith(`\n\n${SIGNATURE}`)).toBe(true);
    expect(second.split('Maria Lopez')).toHaveLength(2);
    expect(second.length).toBeLessThan(first.length);
  });
});
