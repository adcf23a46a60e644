import {
  callerOf,
  functionResponsesIn,
  HUMAN_REQUEST,
  INVOICE_QUESTION,
  OUTAGE_QUESTION,
  PROVIDERS,
  startHelpdesk,
  type HelpdeskUnderTest,
} from './support/harness.js';

describe.each(PROVIDERS)('routing each message to a specialist, on %s', (provider) => {
  let helpdesk: HelpdeskUnderTest;

  beforeAll(async () => {
    helpdesk = await startHelpdesk({ provider });
  });
  afterAll(() => helpdesk.close());
  beforeEach(() => helpdesk.emulator.requests.clear());

  it('when the customer asks about an invoice, then billing answers with the invoice data', async () => {
    const res = await helpdesk.send('route-billing', INVOICE_QUESTION).expect(200);

    expect(res.body).toEqual({
      session_id: 'route-billing',
      agent: 'billing',
      reply: expect.any(String),
    });
    expect(res.body.reply).toContain('INV-1001');
    expect(res.body.reply).toContain('1250');
    expect(res.body.reply).toContain('EUR');
    expect(res.body.reply).toMatch(/open/);
  });

  it('when the customer asks whether the API is down, then technical answers with its status', async () => {
    const res = await helpdesk.send('route-technical', OUTAGE_QUESTION).expect(200);

    expect(res.body.agent).toBe('technical');
    expect(res.body.reply).toMatch(/operational/);
    expect(res.body).not.toHaveProperty('ticket_id');
  });

  it('when an unhappy customer asks for a human, then escalation answers with the ticket the tool created', async () => {
    const res = await helpdesk.send('route-escalation', HUMAN_REQUEST).expect(200);

    expect(res.body.agent).toBe('escalation');
    const created = helpdesk
      .modelCalls()
      .flatMap(functionResponsesIn)
      .filter((r) => r.name === 'create_ticket');
    expect(created).toHaveLength(1);
    expect(res.body.ticket_id).toBe(created[0]!.response['ticket_id']);
    expect(res.body.ticket_id).toMatch(/^TCK-[A-Z0-9]{8}$/);
    expect(res.body.reply).toContain(res.body.ticket_id);
  });

  it('when a message fits no specialist, then the coordinator answers it itself, without a transfer', async () => {
    const res = await helpdesk.send('route-greeting', 'Hello there, good morning!').expect(200);

    expect(res.body).toEqual({
      session_id: 'route-greeting',
      agent: 'coordinator',
      reply: expect.any(String),
    });
    expect(res.body.reply).not.toBe('');
    const calls = helpdesk.modelCalls();
    expect(calls.map(callerOf)).toEqual(['coordinator']);
  });

  it('when the invoice does not exist, then billing says so instead of failing', async () => {
    const res = await helpdesk
      .send('route-unknown-invoice', 'What do I owe on invoice INV-9999?')
      .expect(200);

    expect(res.body.agent).toBe('billing');
    expect(res.body.reply).toMatch(/INV-9999/);
    const lookup = helpdesk
      .modelCalls()
      .flatMap(functionResponsesIn)
      .find((r) => r.name === 'lookup_invoice');
    expect(lookup?.response).toMatchObject({ found: false, invoice_id: 'INV-9999' });
  });

  it('when the three kinds of message come in one session, then each reaches its own specialist, in order and reversed', async () => {
    const messages = [INVOICE_QUESTION, OUTAGE_QUESTION, HUMAN_REQUEST];
    const expected = ['billing', 'technical', 'escalation'];
    const answered: Array<{ agent: string; ticket_id?: string }> = [];
    for (const message of [...messages, ...[...messages].reverse()]) {
      const res = await helpdesk.send('route-mixed', message).expect(200);
      answered.push(res.body);
    }

    expect(answered.map((a) => a.agent)).toEqual([...expected, ...[...expected].reverse()]);
    // A ticket belongs to the turn that opened it: turns after an escalation carry none.
    answered.forEach(({ agent, ticket_id }) => {
      if (agent === 'escalation') expect(ticket_id).toMatch(/^TCK-/);
      else expect(ticket_id).toBeUndefined();
    });
    expect(answered[2]!.ticket_id).not.toBe(answered[3]!.ticket_id);
    // Every turn started at the coordinator, which is what lets a later message switch specialist.
    const firstCallers = helpdesk
      .modelCalls()
      .map(callerOf)
      .filter((caller, i, all) => caller === 'coordinator' && all[i - 1] !== 'coordinator');
    expect(firstCallers).toHaveLength(6);
  });
});
