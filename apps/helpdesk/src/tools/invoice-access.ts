import type { Caller } from './caller.js';
import type { Invoice } from './tool-sources.js';

/** What an invoice access rule decides on. */
interface InvoiceAccessRequest {
  /** Who the turn runs for; undefined when the tool runs outside the service's turns. */
  caller: Caller | undefined;
  invoice: Invoice;
  /** The billing email the customer gave with the request, as the model passed it, if any. */
  billingEmail: string | undefined;
}

/**
 * Whether `lookup_invoice` may show an invoice to its caller (if not, it answers as for no such
 * invoice). A deployment may replace it (createHelpdesk's `invoiceAccess`); it may be async.
 */
export type InvoiceAccessRule = (request: InvoiceAccessRequest) => boolean | Promise<boolean>;

// As written in a sentence: any case, and maybe the sentence's full stop after it.
const sameEmail = (given: string | undefined, onInvoice: string) =>
  given !== undefined && given.trim().replace(/\.+$/, '').toLowerCase() === onInvoice.toLowerCase();

/**
 * The default: an authenticated client or an open service's operator sees any invoice by id;
 * anyone else must also give its billing email, so trying ids one after another shows none.
 */
export const defaultInvoiceAccess: InvoiceAccessRule = ({ caller, invoice, billingEmail }) =>
  caller?.kind === 'client' ||
  caller?.kind === 'operator' ||
  sameEmail(billingEmail, invoice.billing_email);
