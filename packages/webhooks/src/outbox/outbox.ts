import { z } from 'zod';

/** Something that happened, for every endpoint subscribed to its type. */
export interface WebhookEvent {
  type: string;
  /** What the event is about (a thread, a session): events of one subject reach an endpoint in order. */
  subject: string;
  data: Record<string, unknown>;
  /** Default: now. */
  timestamp?: Date;
}

/** The body every endpoint receives (Standard Webhooks' recommended shape). */
export const envelopeOf = (event: WebhookEvent, timestamp: Date) =>
  JSON.stringify({ type: event.type, timestamp: timestamp.toISOString(), data: event.data });

export const deliveryStatusSchema = z.enum(['pending', 'delivered', 'failed']);
export type DeliveryStatus = z.infer<typeof deliveryStatusSchema>;

export const deliverySchema = z.object({
  id: z.string().describe('Also the `webhook-id` header of every attempt.'),
  endpoint: z.string(),
  type: z.string(),
  subject: z.string(),
  status: deliveryStatusSchema,
  attempts: z.number().int(),
  last_status: z.number().int().nullable().describe('HTTP status of the last attempt, if any.'),
  last_error: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  created_at: z.string(),
  delivered_at: z.string().nullable(),
});
export type Delivery = z.infer<typeof deliverySchema>;

/** The caller's transaction: an event is committed with the change it reports (pg.PoolClient fits). */
export interface TransactionClient {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[]; rowCount: number | null }>;
}

/**
 * Publishing inside the statement that makes a change (PostgreSQL): `ctes` are common table
 * expressions that write the deliveries, taking `params(events)` from `$first` on.
 * The change and its events are then one statement: no transaction, no round trip of their own.
 */
export interface InStatement {
  /**
   * `guard`: a CTE of the statement that yields a row when the change was made (no row: no event);
   * none: always. Joined to the statement's other CTEs with a comma.
   */
  ctes(guard: string | undefined, first: number): string;
  /** The parameters of `ctes` for these events; undefined when no endpoint subscribes to any. */
  params(events: readonly WebhookEvent[]): unknown[] | undefined;
}

/**
 * Where events wait for their deliveries, and who sends them. In PostgreSQL, `publish` writes
 * one delivery row per subscribed endpoint in the caller's transaction (the table is the queue);
 * in memory, the same in process.
 */
export interface Outbox {
  publish(events: readonly WebhookEvent[], transaction?: TransactionClient): Promise<void>;
  list(filter: { status?: DeliveryStatus; limit: number }): Promise<Delivery[]>;
  /**
   * A failed delivery back to pending, attempted again now (`retried`); a delivery that has not
   * failed is answered as it is, unchanged. Undefined when there is no such delivery.
   */
  retry(id: string): Promise<{ retried: boolean; delivery: Delivery } | undefined>;
  /** PostgreSQL only: publishing inside the change's own statement. */
  readonly inStatement?: InStatement;
  /** Any endpoints at all: a service with none skips building events. */
  readonly enabled: boolean;
  start(): Promise<void>;
  close(): Promise<void>;
}
