import { FunctionTool } from '@google/adk';
import {
  checkServiceStatus,
  checkServiceStatusTool as checkServiceStatusOptions,
  staticServices,
} from '../src/tools/check-service-status.js';
import {
  createTicket,
  createTicketTool as createTicketOptions,
  randomTicketId,
} from '../src/tools/create-ticket.js';
import { defaultInvoiceAccess, type InvoiceAccessRule } from '../src/tools/invoice-access.js';
import {
  lookupInvoice,
  lookupInvoiceTool as lookupInvoiceOptions,
} from '../src/tools/lookup-invoice.js';
import type { Caller } from '../src/tools/caller.js';

// As the agent tree builds them (agents/specialists.ts).
const lookupInvoiceTool = new FunctionTool(lookupInvoiceOptions(defaultInvoiceAccess));
const client: Caller = { kind: 'client', name: 'crm' };
const widget: Caller = { kind: 'widget', session: 'web-0123' };
const checkServiceStatusTool = new FunctionTool(checkServiceStatusOptions(staticServices));
const createTicketTool = new FunctionTool(createTicketOptions);

describe('lookup_invoice', () => {
  it('when the invoice exists, then its amount, currency, status and due date are returned', async () => {
    expect(await lookupInvoice({ invoice_id: 'INV-1003' }, client)).toEqual({
      found: true,
      invoice_id: 'INV-1003',
      customer: 'Initech Inc',
      billing_email: 'billing@initech.example',
      amount: 4300.5,
      currency: 'USD',
      status: 'overdue',
      issued_on: '2024-11-20',
      due_on: '2024-12-20',
    });
  });

  it('when the id differs only in case or spacing, then the invoice is still found', async () => {
    expect(await lookupInvoice({ invoice_id: ' inv-1001 ' }, client)).toMatchObject({
      found: true,
      invoice_id: 'INV-1001',
    });
  });

  it('when the invoice does not exist, then a not-found result is returned, not an exception', async () => {
    expect(await lookupInvoice({ invoice_id: 'INV-0000' }, client)).toEqual({
      found: false,
      invoice_id: 'INV-0000',
      message: expect.stringContaining('No invoice with id INV-0000'),
    });
  });

  it('when an anonymous widget caller names an invoice by its id alone, then it is as if there were none', async () => {
    const existing = await lookupInvoice({ invoice_id: 'INV-1001' }, widget);
    const unknown = await lookupInvoice({ invoice_id: 'INV-1099' }, widget);

    expect(existing).toEqual({ ...unknown, invoice_id: 'INV-1001', message: expect.any(String) });
    expect(existing.found).toBe(false);
    expect((existing as { message: string }).message).toBe(
      (unknown as { message: string }).message.replaceAll('INV-1099', 'INV-1001'),
    );
    expect(JSON.stringify(existing)).not.toMatch(/Acme|1250/);
  });

  it('when an anonymous widget caller also gives the billing email on the invoice, then it is found', async () => {
    expect(
      await lookupInvoice({ invoice_id: 'INV-1001', billing_email: ' AP@Acme.Example ' }, widget),
    ).toMatchObject({ found: true, invoice_id: 'INV-1001', amount: 1250 });
    expect(
      await lookupInvoice(
        { invoice_id: 'INV-1001', billing_email: 'billing@initech.example' },
        widget,
      ),
    ).toMatchObject({ found: false });
  });

  it('when the caller is unknown (a tool run outside a turn of the service), then it proves as much as a stranger', async () => {
    expect(await lookupInvoice({ invoice_id: 'INV-1001' }, undefined)).toMatchObject({
      found: false,
    });
  });

  it('when a deployment gives its own rule, then the rule decides, told who asks and what they gave', async () => {
    const asked: Parameters<InvoiceAccessRule>[0][] = [];
    const financeOnly: InvoiceAccessRule = async (request) => {
      asked.push(request);
      return request.caller?.kind === 'client' && request.caller.name === 'finance';
    };

    expect(await lookupInvoice({ invoice_id: 'INV-1002' }, client, financeOnly)).toMatchObject({
      found: false,
    });
    expect(
      await lookupInvoice(
        { invoice_id: 'INV-1002' },
        { kind: 'client', name: 'finance' },
        financeOnly,
      ),
    ).toMatchObject({ found: true });
    expect(asked[0]).toEqual({
      caller: client,
      invoice: expect.objectContaining({ invoice_id: 'INV-1002' }),
      billingEmail: undefined,
    });
  });

  it('when the model passes arguments that break the schema, then the tool reports an error instead of running', async () => {
    await expect(
      lookupInvoiceTool.runAsync({ args: { invoice_id: '' }, toolContext: undefined as never }),
    ).rejects.toThrow(/lookup_invoice/);
  });

  it('when ADK declares the tool, then the parameters come from the zod schema', () => {
    expect(lookupInvoiceTool._getDeclaration()).toMatchObject({
      name: 'lookup_invoice',
      parameters: {
        type: 'OBJECT',
        required: ['invoice_id'],
        properties: { billing_email: { type: 'STRING' } },
      },
    });
  });
});

describe('check_service_status', () => {
  it('when the service is known, then its status and message are returned', () => {
    expect(checkServiceStatus({ service: 'email' })).toEqual({
      found: true,
      service: 'email',
      status: 'outage',
      message: expect.any(String),
    });
  });

  it('when the name is written loosely, then the service is still found', () => {
    expect(checkServiceStatus({ service: 'The API' })).toMatchObject({
      found: true,
      service: 'api',
    });
    expect(checkServiceStatus({ service: 'DASHBOARD service' })).toMatchObject({
      found: true,
      status: 'degraded',
    });
  });

  it('when the service is unknown, then a not-found result lists the known ones', () => {
    expect(checkServiceStatus({ service: 'teleporter' })).toMatchObject({
      found: false,
      known_services: ['api', 'dashboard', 'email', 'billing', 'storage'],
    });
  });

  it('when ADK declares the tool, then it is named for the model', () => {
    expect(checkServiceStatusTool._getDeclaration().name).toBe('check_service_status');
  });
});

describe('create_ticket', () => {
  it('when a ticket is created, then it gets the given id, open status and normal priority by default', () => {
    expect(createTicket({ summary: 'Wants a refund' }, () => 'TCK-TEST0001')).toEqual({
      ticket_id: 'TCK-TEST0001',
      status: 'open',
      priority: 'normal',
      summary: 'Wants a refund',
      message: expect.stringContaining('TCK-TEST0001'),
    });
  });

  it('when many ids are drawn, then they are well-formed and unique', () => {
    const ids = new Set(Array.from({ length: 5_000 }, randomTicketId));

    expect(ids.size).toBe(5_000);
    for (const id of ids) expect(id).toMatch(/^TCK-[A-Z2-9]{8}$/);
  });

  it('when the tool runs twice, then each run returns a fresh ticket id', async () => {
    const run = () =>
      createTicketTool.runAsync({
        args: { summary: 'Angry customer' },
        toolContext: undefined as never,
      });

    const [first, second] = (await Promise.all([run(), run()])) as Array<{ ticket_id: string }>;

    expect(first!.ticket_id).not.toBe(second!.ticket_id);
  });
});
