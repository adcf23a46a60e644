import type { ToolOptions } from '@google/adk';
import { z } from 'zod';
import { INVOICES, type Invoice } from './data/invoices.js';

export const lookupInvoiceParameters = z.object({
  invoice_id: z.string().min(1).max(64).describe('The invoice id, e.g. INV-1001.'),
});

export type InvoiceLookup =
  ({ found: true } & Invoice) | { found: false; invoice_id: string; message: string };

const byId = new Map(INVOICES.map((invoice) => [invoice.invoice_id, invoice]));

/** Finds an invoice by id; ids are matched case-insensitively so "inv-1001" finds INV-1001. */
export function lookupInvoice({
  invoice_id,
}: z.infer<typeof lookupInvoiceParameters>): InvoiceLookup {
  const id = invoice_id.trim().toUpperCase();
  const invoice = byId.get(id);
  if (invoice) return { found: true, ...invoice };
  // A not-found result, not an exception: the model should tell the user, not fail the turn.
  return {
    found: false,
    invoice_id: id,
    message: `No invoice with id ${id}. Invoice ids look like INV-1001.`,
  };
}

/** Built into a FunctionTool by the agent tree (agents/specialists.ts). */
export const lookupInvoiceTool: ToolOptions<typeof lookupInvoiceParameters> = {
  name: 'lookup_invoice',
  description:
    'Looks up an invoice by its id and returns its amount, currency, status and due date.',
  parameters: lookupInvoiceParameters,
  execute: lookupInvoice,
};
