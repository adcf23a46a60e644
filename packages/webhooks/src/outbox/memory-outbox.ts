import { randomUUID } from 'node:crypto';
import { subscribes, type Endpoint } from '../config/webhook-settings.js';
import { attemptDelivery, type AttemptDeps } from '../sending/attempt-delivery.js';
import { EndpointSlots } from '../sending/endpoint-slots.js';
import { envelopeOf, type Delivery, type Outbox, type WebhookEvent } from './outbox.js';

interface MemoryDelivery {
  id: string;
  endpoint: Endpoint;
  type: string;
  subject: string;
  body: string;
  status: Delivery['status'];
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  next_attempt_at: Date | null;
  created_at: Date;
  delivered_at: Date | null;
}

const MAX_KEPT = 10_000;

const view = (d: MemoryDelivery): Delivery => ({
  id: d.id,
  endpoint: d.endpoint.id,
  type: d.type,
  subject: d.subject,
  status: d.status,
  attempts: d.attempts,
  last_status: d.last_status,
  last_error: d.last_error,
  next_attempt_at: d.next_attempt_at?.toISOString() ?? null,
  created_at: d.created_at.toISOString(),
  delivered_at: d.delivered_at?.toISOString() ?? null,
});

/**
 * The outbox in process memory (no DATABASE_URL): the same order, retries and limits as in
 * PostgreSQL, lost with the process. Each endpoint+subject is one line: its head is attempted
 * until it settles, then the next.
 */
export class MemoryOutbox implements Outbox {
  private readonly deliveries = new Map<string, MemoryDelivery>();
  private readonly lines = new Map<string, MemoryDelivery[]>();
  private readonly slots: EndpointSlots;
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(private readonly deps: AttemptDeps) {
    this.slots = new EndpointSlots(deps.settings.concurrency);
  }

  get enabled() {
    return this.deps.settings.endpoints.length > 0;
  }

  async publish(events: readonly WebhookEvent[]): Promise<void> {
    for (const event of events) {
      const timestamp = event.timestamp ?? new Date();
      for (const endpoint of this.deps.settings.endpoints) {
        if (!subscribes(endpoint, event.type)) continue;
        const delivery: MemoryDelivery = {
          id: `msg_${randomUUID()}`,
          endpoint,
          type: event.type,
          subject: event.subject,
          body: envelopeOf(event, timestamp),
          status: 'pending',
          attempts: 0,
          last_status: null,
          last_error: null,
          next_attempt_at: null,
          created_at: new Date(),
          delivered_at: null,
        };
        this.keep(delivery);
        this.enqueue(delivery);
      }
    }
  }

  async list(filter: { status?: Delivery['status']; limit: number }): Promise<Delivery[]> {
    return [...this.deliveries.values()]
      .filter((d) => !filter.status || d.status === filter.status)
      .slice(-filter.limit)
      .reverse()
      .map(view);
  }

  async retry(id: string) {
    const delivery = this.deliveries.get(id);
    if (!delivery) return undefined;
    if (delivery.status !== 'failed') return { retried: false, delivery: view(delivery) };
    Object.assign(delivery, { status: 'pending', next_attempt_at: null, created_at: new Date() });
    this.enqueue(delivery);
    return { retried: true, delivery: view(delivery) };
  }

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
  }

  private keep(delivery: MemoryDelivery) {
    this.deliveries.set(delivery.id, delivery);
    // Settled deliveries beyond the bound go first (Map keeps insertion order).
    if (this.deliveries.size <= MAX_KEPT) return;
    for (const [id, old] of this.deliveries) {
      if (old.status !== 'pending') {
        this.deliveries.delete(id);
        return;
      }
    }
  }

  private enqueue(delivery: MemoryDelivery) {
    const key = `${delivery.endpoint.id}\n${delivery.subject}`;
    const line = this.lines.get(key);
    if (line) {
      line.push(delivery);
      return;
    }
    this.lines.set(key, [delivery]);
    this.pump(key);
  }

  /** Attempts the line's head; a retry waits its turn by timer, holding the line behind it. */
  private pump(key: string) {
    const line = this.lines.get(key);
    const head = line?.[0];
    if (!line || !head || this.closed) return;
    void this.slots
      .run(head.endpoint.id, () => attemptDelivery(this.deps, head.endpoint, head))
      .then((after) => {
        Object.assign(head, after);
        // Closed meanwhile: no retry timer (it would keep the process alive for up to an hour).
        if (this.closed) return;
        if (after.status === 'pending' && after.next_attempt_at) {
          const timer = setTimeout(() => {
            this.timers.delete(timer);
            this.pump(key);
          }, after.next_attempt_at.getTime() - Date.now());
          this.timers.add(timer);
          return;
        }
        line.shift();
        if (line.length === 0) this.lines.delete(key);
        else this.pump(key);
      });
  }
}
