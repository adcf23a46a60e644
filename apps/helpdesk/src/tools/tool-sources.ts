import type { Invoice } from './data/invoices.js';
import type { ServiceStatusCheck } from './check-service-status.js';

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
