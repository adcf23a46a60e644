import type { z } from 'zod';
import {
  invoiceSchema,
  serviceStatusSchema,
  SourceUnavailable,
  type Invoice,
  type InvoiceSource,
  type ServiceStatusSource,
} from './tool-sources.js';

interface HttpSourceOptions {
  /** The base URL; a record is `GET {url}/{id}` (the id percent-encoded). */
  url: string;
  /** Per request (default 5 s). */
  timeoutMs?: number;
}

/**
 * `GET {url}/{id}`: 200 with the JSON record, 404 when there is none; anything else (a status, a
 * body, a timeout, a refused connection) is SourceUnavailable, reported to the model.
 */
async function getRecord<T>(
  name: string,
  options: HttpSourceOptions,
  id: string,
  schema: z.ZodType<T>,
): Promise<T | undefined> {
  const url = `${options.url.replace(/\/+$/, '')}/${encodeURIComponent(id)}`;
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(options.timeoutMs ?? 5_000),
    });
  } catch (error) {
    const reason =
      (error as Error).name === 'TimeoutError' ? 'timed out' : (error as Error).message;
    throw new SourceUnavailable(name, reason);
  }
  if (response.status === 404) {
    await response.body?.cancel();
    return undefined;
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new SourceUnavailable(name, `answered ${response.status}`);
  }
  const parsed = schema.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success)
    throw new SourceUnavailable(name, 'answered with a body that is not a record');
  return parsed.data;
}

/** Invoices from a billing system over HTTP (INVOICE_SOURCE_URL). */
export function httpInvoices(options: HttpSourceOptions): InvoiceSource {
  return {
    find: (invoiceId): Promise<Invoice | undefined> =>
      getRecord('invoice source', options, invoiceId, invoiceSchema),
  };
}

/** Service statuses from a status system over HTTP (STATUS_SOURCE_URL), by the name as asked, lower-cased. */
export function httpServiceStatuses(options: HttpSourceOptions): ServiceStatusSource {
  return {
    check: async (service) => {
      const name = service.trim().toLowerCase();
      const found = await getRecord('status source', options, name, serviceStatusSchema);
      if (found) return { found: true, ...found };
      return {
        found: false,
        service: service.trim(),
        known_services: [],
        message: `No service named "${service.trim()}" on the status page.`,
      };
    },
  };
}
