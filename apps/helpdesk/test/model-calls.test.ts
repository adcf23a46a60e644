import type { BaseTool, LlmAgent } from '@google/adk';
import {
  callerOf,
  INVOICE_QUESTION,
  startHelpdesk,
  type HelpdeskUnderTest,
} from './support/harness.js';

describe('model calls per turn', () => {
  let helpdesk: HelpdeskUnderTest;

  beforeAll(async () => {
    helpdesk = await startHelpdesk();
  });
  afterAll(() => helpdesk.close());

  it('when a message is delegated and the specialist calls one tool, then the model is called exactly 3 times', async () => {
    await helpdesk.send('calls-warmup', INVOICE_QUESTION).expect(200);
    helpdesk.emulator.requests.clear();

    await helpdesk.send('calls-second-turn', INVOICE_QUESTION).expect(200);

    const calls = helpdesk.modelCalls();
    expect(calls).toHaveLength(3);
    // coordinator → transfer_to_agent; billing → lookup_invoice; billing → the reply.
    expect(calls.map(callerOf)).toEqual(['coordinator', 'billing', 'billing']);
    expect(calls.every((c) => c.status === 200)).toBe(true);
  });

  it('when a later message arrives in the same session, then it also costs exactly 3 calls', async () => {
    await helpdesk.send('calls-same-session', INVOICE_QUESTION).expect(200);
    helpdesk.emulator.requests.clear();

    await helpdesk.send('calls-same-session', 'Is the API down?').expect(200);

    expect(helpdesk.modelCalls().map(callerOf)).toEqual(['coordinator', 'technical', 'technical']);
  });

  it('when tools are declared to the model on every call, then the declaration sent is the same each time', async () => {
    const billing = helpdesk.agent.findAgent('billing') as LlmAgent;
    const lookupInvoiceTool = billing.tools[0] as BaseTool;
    const before = JSON.stringify(lookupInvoiceTool._getDeclaration());

    await helpdesk.send('calls-declaration', INVOICE_QUESTION).expect(200);
    await helpdesk.send('calls-declaration', INVOICE_QUESTION).expect(200);

    expect(JSON.stringify(lookupInvoiceTool._getDeclaration())).toBe(before);
    const sent = helpdesk
      .modelCalls()
      .filter((c) => callerOf(c) === 'billing')
      .map((c) => JSON.stringify((c.body as { tools?: unknown }).tools));
    expect(new Set(sent).size).toBe(1);
  });
});
