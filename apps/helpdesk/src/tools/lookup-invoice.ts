import type { ToolOptions } from '@google/adk';
import { z } from 'zod';
import { callerIn, type Caller } from './caller.js';
import { INVOICES } from './data/invoices.js';
import { defaultInvoiceAccess, type InvoiceAccessRule } from './invoice-access.js';
import { SourceUnavailable, type Invoice, type InvoiceSource } from './tool-sources.js';

const byId = new Map(INVOICES.map((invoice) => [invoice.invoice_id, invoice]));

/** The in-repo invoices `INV-1001`…`INV-1005` (the default source). */
export const staticInvoices: InvoiceSource = {
  find: async (invoiceId) => byId.get(invoiceId),
};

const lookupInvoiceParameters = z.object({
  invoice_id: z.string().min(1).max(64).describe('The invoice id, e.g. INV-1001.'),
  billing_email: z
    .string()
    .max(254)
    .optional()
    .describe(
      'The billing email on the invoice, when the customer gave one: a customer who is not ' +
        'signed in needs it to see the invoice.',
    ),
});

type InvoiceLookup =
  | ({ found: true } & Invoice)
  | { found: false; invoice_id: string; message: string; unavailable?: true };

/**
 * Finds an invoice by id in `source` (case-insensitively) and shows it if `access` lets `caller`
 * see it; one the caller may not see gets the answer an unknown id gets, so trying ids tells nothing.
 */
export async function lookupInvoice(
  { invoice_id, billing_email }: z.infer<typeof lookupInvoiceParameters>,
  caller: Caller | undefined,
  access: InvoiceAccessRule = defaultInvoiceAccess,
  source: InvoiceSource = staticInvoices,
): Promise<InvoiceLookup> {
  const id = invoice_id.trim().toUpperCase();
  let invoice: Invoice | undefined;
  try {
    invoice = await source.find(id);
  } catch (error) {
    if (!(error instanceof SourceUnavailable)) throw error;
    // Said to the model (and logged by the caller's telemetry as a tool result), not a failed turn.
    return {
      found: false,
      invoice_id: id,
      unavailable: true,
      message:
        'The billing system is not answering right now, so the invoice cannot be looked up. ' +
        'Ask the customer to try again in a few minutes.',
    };
  }
  if (invoice && (await access({ caller, invoice, billingEmail: billing_email }))) {
    return { found: true, ...invoice };
  }
  // A not-found result, not an exception: the model should tell the user, not fail the turn.
  return {
    found: false,
    invoice_id: id,
    message:
      `No invoice with id ${id} was found for this customer. Invoice ids look like INV-1001; ` +
      'a customer who is not signed in must also give the billing email on the invoice.',
  };
}

/** Built into a FunctionTool by the agent tree; the caller comes from session state (caller.ts). */
export const lookupInvoiceTool = (
  access: InvoiceAccessRule,
  source: InvoiceSource = staticInvoices,
): ToolOptions<typeof lookupInvoiceParameters> => ({
  name: 'lookup_invoice',
  description:
    'Looks up an invoice by its id and returns its amount, currency, status and due date.',
  parameters: lookupInvoiceParameters,
  execute: (args, context) => lookupInvoice(args, callerIn(context), access, source),
});
