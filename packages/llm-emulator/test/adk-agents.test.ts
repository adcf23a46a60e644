import {
  FunctionTool,
  InMemorySessionService,
  LlmAgent,
  LogLevel,
  Runner,
  setLogLevel,
  type Event,
} from '@google/adk';
import { z } from 'zod';
import { startEmulator, type Emulator } from '../src/index.js';
import { GeminiAtBaseUrl } from './support/gemini-at-base-url.js';

setLogLevel(LogLevel.ERROR);

let emu: Emulator;
const toolCalls: Array<{ tool: string; args: unknown }> = [];

function helpdesk(baseUrl: string): Runner {
  const model = () =>
    new GeminiAtBaseUrl({ model: 'gemini-2.5-flash', apiKey: 'test-key' }, baseUrl);
  const specialist = (name: string, description: string, tool: FunctionTool) =>
    new LlmAgent({
      name,
      description,
      model: model(),
      instruction: `You are the ${name}.`,
      tools: [tool],
      disallowTransferToParent: true,
      disallowTransferToPeers: true,
    });
  const billing = specialist(
    'billing_agent',
    'Answers questions about invoices, charges and payments.',
    new FunctionTool({
      name: 'lookup_invoice',
      description: 'Look up an invoice by its id.',
      parameters: z.object({ invoiceId: z.string().describe('Invoice id such as INV-1001') }),
      execute: async ({ invoiceId }) => {
        toolCalls.push({ tool: 'lookup_invoice', args: { invoiceId } });
        return { invoiceId, status: 'paid', amount: 120 };
      },
    }),
  );
  const technical = specialist(
    'technical_agent',
    'Handles outages, errors and the status of our services.',
    new FunctionTool({
      name: 'check_service_status',
      description: 'Check whether a service is up or down.',
      parameters: z.object({ service: z.string() }),
      execute: async ({ service }) => {
        toolCalls.push({ tool: 'check_service_status', args: { service } });
        return { service, status: 'degraded' };
      },
    }),
  );
  const escalation = specialist(
    'escalation_agent',
    'Handles complaints and requests to speak to a human or a manager.',
    new FunctionTool({
      name: 'escalate_to_human',
      description: 'Open a ticket so a human support manager calls the customer back.',
      parameters: z.object({ reason: z.string(), priority: z.enum(['normal', 'urgent']) }),
      execute: async (args) => {
        toolCalls.push({ tool: 'escalate_to_human', args });
        return { ticketId: 'ESC-7', queue: 'managers' };
      },
    }),
  );
  const coordinator = new LlmAgent({
    name: 'coordinator',
    description: 'Front desk that routes each customer request to the right specialist.',
    model: model(),
    instruction: 'Route the customer to the right specialist.',
    subAgents: [billing, technical, escalation],
  });
  return new Runner({
    appName: 'helpdesk',
    agent: coordinator,
    sessionService: new InMemorySessionService(),
  });
}

async function ask(runner: Runner, sessionId: string, text: string): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.runAsync({
    userId: 'u1',
    sessionId,
    newMessage: { role: 'user', parts: [{ text }] },
  }))
    events.push(event);
  return events;
}

function finalText(events: Event[]): string {
  return events
    .flatMap((e) => e.content?.parts ?? [])
    .flatMap((p) => (p.text ? [p.text] : []))
    .join('\n');
}

let runner: Runner;
let sessionId: string;

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  runner = helpdesk(emu.url);
  const session = await runner.sessionService.createSession({ appName: 'helpdesk', userId: 'u1' });
  sessionId = session.id;
});
afterAll(() => emu.close());
beforeEach(() => {
  toolCalls.length = 0;
});

describe('@google/adk LlmAgent tree routed by the emulator', () => {
  it('when asked about an invoice, then the coordinator transfers to billing, which looks the invoice up and states it', async () => {
    const events = await ask(runner, sessionId, 'What is the status of invoice INV-1001?');
    const transfer = events.find((e) => e.actions.transferToAgent);
    expect(transfer?.actions.transferToAgent).toBe('billing_agent');
    expect(toolCalls).toEqual([{ tool: 'lookup_invoice', args: { invoiceId: 'INV-1001' } }]);
    expect(events.at(-1)?.author).toBe('billing_agent');
    expect(finalText(events)).toMatch(/INV-1001.*paid/);
  });

  it('when asked "is the API down?", then technical checks the api service', async () => {
    const events = await ask(runner, sessionId, 'Is the API down?');
    expect(events.find((e) => e.actions.transferToAgent)?.actions.transferToAgent).toBe(
      'technical_agent',
    );
    expect(toolCalls).toEqual([{ tool: 'check_service_status', args: { service: 'api' } }]);
    expect(finalText(events)).toContain('degraded');
  });

  it('when an angry customer asks for a human, then escalation opens a ticket and gives its id', async () => {
    const events = await ask(
      runner,
      sessionId,
      'This is ridiculous! I have waited a week. Let me talk to a human right now!',
    );
    expect(events.find((e) => e.actions.transferToAgent)?.actions.transferToAgent).toBe(
      'escalation_agent',
    );
    expect(toolCalls).toEqual([
      {
        tool: 'escalate_to_human',
        args: { reason: expect.stringContaining('ridiculous') as unknown, priority: 'urgent' },
      },
    ]);
    expect(events.at(-1)?.author).toBe('escalation_agent');
    expect(finalText(events)).toContain('ESC-7');
  });

  it('when the agents run, then every model call went to the emulator with transfer_to_agent declared for the coordinator', () => {
    const coordinatorCalls = emu.requests
      .list()
      .filter((r) => JSON.stringify(r.body).includes('Your internal name is \\"coordinator\\"'));
    expect(coordinatorCalls).toHaveLength(3);
    for (const call of coordinatorCalls)
      expect(JSON.stringify(call.body)).toContain('"name":"transfer_to_agent"');
  });

  // Runs last: it continues the session above, so each specialist now sees its own earlier reply (role
  // "model") and the others' replies rewritten by ADK as "For context:" text.
  it('when later turns of the session ask about another invoice and service in words that read like feedback, then each turn is about its own subject', async () => {
    const billing = await ask(runner, sessionId, 'Does invoice INV-1002 include VAT?');
    expect(billing.find((e) => e.actions.transferToAgent)?.actions.transferToAgent).toBe(
      'billing_agent',
    );
    expect(toolCalls).toEqual([{ tool: 'lookup_invoice', args: { invoiceId: 'INV-1002' } }]);
    expect(finalText(billing)).toContain('INV-1002');

    toolCalls.length = 0;
    const technical = await ask(
      runner,
      sessionId,
      'Is the email service down? Please state the message.',
    );
    expect(technical.find((e) => e.actions.transferToAgent)?.actions.transferToAgent).toBe(
      'technical_agent',
    );
    expect(toolCalls).toEqual([{ tool: 'check_service_status', args: { service: 'email' } }]);
  });
});
