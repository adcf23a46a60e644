import { z } from 'zod';
import type { ServiceStatusCheck } from './check-service-status.js';

/** An invoice as `lookup_invoice` shows it (and its access rule reads it), from any source. */
export const invoiceSchema = z.object({
  invoice_id: z.string().min(1),
  customer: z.string(),
  /** Where the invoice is sent: what a customer without a token proves it is theirs with. */
  billing_email: z.string(),
  amount: z.number(),
  /** ISO 4217. */
  currency: z.string().min(3).max(3),
  /** paid, open, overdue or refunded in the demo data; a billing system may have others. */
  status: z.string().min(1),
  issued_on: z.string(),
  due_on: z.string(),
});

export type Invoice = z.infer<typeof invoiceSchema>;

/** A service's status as `check_service_status` reports it (operational, degraded, outage, …). */
export const serviceStatusSchema = z.object({
  service: z.string().min(1),
  status: z.string().min(1),
  message: z.string(),
});

export type ServiceStatus = z.infer<typeof serviceStatusSchema>;

/** Where `lookup_invoice` finds invoices: the static demo data, or a billing system (http-sources.ts). */
export interface InvoiceSource {
  /** The invoice of this id (as the customer wrote it, upper-cased), or undefined; throws SourceUnavailable. */
  find(invoiceId: string): Promise<Invoice | undefined>;
}

/** Where `check_service_status` reads a service's status: the static data, or a status system. */
export interface ServiceStatusSource {
  /** Throws SourceUnavailable when the system does not answer. */
  check(service: string): Promise<ServiceStatusCheck>;
}

export interface ToolSources {
  invoices: InvoiceSource;
  services: ServiceStatusSource;
}

/** A data source did not answer, or not as documented: the tool tells the model, the turn goes on. */
export class SourceUnavailable extends Error {
  constructor(
    readonly source: string,
    reason: string,
  ) {
    super(`${source}: ${reason}`);
    this.name = 'SourceUnavailable';
  }
}
