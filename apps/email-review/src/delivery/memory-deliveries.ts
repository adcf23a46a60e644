import type { HistoryEvent } from '../threads/thread-history.js';
import { ThreadMovedOn } from '../threads/thread-errors.js';
import type { ThreadStore } from '../threads/thread-store.js';
import type { Thread } from '../threads/thread.js';
import { deliveryView, type Delivery, type OutgoingMessage } from './delivery.js';
import { deliveryEvent, type DeliveryChange } from './delivery-events.js';
import { applyOutcome, requeued } from './delivery-outcome.js';
import type { DeliveryHandler, DeliveryOutcome, DeliveryStore } from './delivery-store.js';

/**
 * Memory mode's records and queue: a map and a timer per due message, lost with the process like
 * everything else in this mode. Same policy as PostgreSQL: one attempt at a time per message,
 * retries scheduled by the outcome.
 */
export class MemoryDeliveries implements DeliveryStore {
  private readonly deliveries = new Map<string, Delivery>();
  private readonly held = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private handler: DeliveryHandler | undefined;

  constructor(private readonly threads: ThreadStore) {}

  async commitApproval(
    view: Thread,
    message: OutgoingMessage,
    events: readonly HistoryEvent[],
  ): Promise<Delivery> {
    const current = await this.threads.get(view.thread_id);
    const reviewable = current?.status === 'awaiting_review' && current.revision === view.revision;
    if (!reviewable || this.deliveries.has(view.thread_id)) throw new ThreadMovedOn(view.thread_id);
    const delivery: Delivery = {
      ...message,
      status: 'queued',
      attempts: 0,
      last_error: null,
      next_attempt_at: view.sent_at ?? view.updated_at,
      delivered_at: null,
      server_reply: null,
    };
    this.deliveries.set(delivery.thread_id, delivery);
    await this.threads.save({ ...view, delivery: deliveryView(delivery) }, [
      ...events,
      deliveryEvent(delivery, 'approved', delivery.next_attempt_at),
    ]);
    this.schedule(delivery);
    return { ...delivery };
  }

  async get(threadId: string) {
    const delivery = this.deliveries.get(threadId);
    return delivery && { ...delivery };
  }

  async attempt(threadId: string, attempt: (delivery: Delivery) => Promise<DeliveryOutcome>) {
    const delivery = this.deliveries.get(threadId);
    if (!delivery || this.held.has(threadId) || !isDue(delivery)) return;
    this.held.add(threadId);
    try {
      await this.record(applyOutcome(delivery, await attempt({ ...delivery })), 'attempted');
    } finally {
      this.held.delete(threadId);
    }
  }

  async redeliver(threadId: string, at: string) {
    const delivery = this.deliveries.get(threadId);
    if (delivery?.status !== 'failed') return undefined;
    return this.record(requeued(delivery, at), 'redelivered');
  }

  async requeueStale(staleMs: number) {
    const stale = [...this.deliveries.values()].filter(
      (delivery) => isDue(delivery, staleMs) && !this.held.has(delivery.thread_id),
    );
    stale.forEach((delivery) => this.schedule(delivery));
    return stale.length;
  }

  async start(handler: DeliveryHandler) {
    this.handler = handler;
    for (const delivery of this.deliveries.values()) if (isDue(delivery)) this.schedule(delivery);
  }

  async stop() {
    this.handler = undefined;
    this.timers.forEach((timer) => clearTimeout(timer));
    this.timers.clear();
  }

  private async record(delivery: Delivery, change: DeliveryChange): Promise<Delivery> {
    this.deliveries.set(delivery.thread_id, delivery);
    const thread = await this.threads.get(delivery.thread_id);
    if (thread)
      await this.threads.save({ ...thread, delivery: deliveryView(delivery) }, [
        deliveryEvent(delivery, change),
      ]);
    if (delivery.status === 'queued') this.schedule(delivery);
    return { ...delivery };
  }

  private schedule(delivery: Delivery) {
    const wait = Math.max(0, Date.parse(delivery.next_attempt_at) - Date.now());
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      // A failed attempt is logged by the runner and taken again by the sweep.
      this.handler?.(delivery.thread_id).catch(() => undefined);
    }, wait);
    this.timers.add(timer);
  }
}

function isDue(delivery: Delivery, overdueMs = 0): boolean {
  return (
    delivery.status === 'queued' && Date.parse(delivery.next_attempt_at) <= Date.now() - overdueMs
  );
}
