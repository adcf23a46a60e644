import type { Transaction } from '../persistence/transaction.js';
import type { MemoryThreadStore } from '../threads/memory-thread-store.js';
import { deliveryEvent, deliveryView, type Delivery, type DeliveryChange } from './delivery.js';
import {
  applyOutcome,
  requeued,
  saveApproval,
  type Approval,
  type DeliveryHandler,
  type DeliveryOutcome,
  type DeliveryStore,
} from './delivery-store.js';
import { DEFAULT_RETRY_POLICY, retryDelayMs, type RetryPolicy } from './retry-policy.js';

/**
 * Memory mode's records and queue: a map and a timer per job, lost with the process. The same policy
 * as pg-boss's: one attempt at a time per message, a job that throws runs again after the policy's wait.
 */
export class MemoryDeliveries implements DeliveryStore {
  private readonly deliveries = new Map<string, Delivery>();
  private readonly held = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private handler: DeliveryHandler | undefined;
  /** Jobs queued before start(), run then. */
  private readonly pending = new Set<string>();

  constructor(
    private readonly threads: MemoryThreadStore,
    private readonly retry: RetryPolicy = DEFAULT_RETRY_POLICY,
  ) {}

  async commitApproval(tx: Transaction, approval: Approval): Promise<Delivery> {
    const delivery = await saveApproval(this.threads, tx, approval);
    this.deliveries.set(delivery.thread_id, delivery);
    if (delivery.status === 'queued') this.enqueue(delivery.thread_id);
    return { ...delivery };
  }

  async get(threadId: string) {
    const delivery = this.deliveries.get(threadId);
    return delivery && { ...delivery };
  }

  async attempt(threadId: string, attempt: (delivery: Delivery) => Promise<DeliveryOutcome>) {
    const delivery = this.deliveries.get(threadId);
    if (delivery?.status !== 'queued' || this.held.has(threadId)) return undefined;
    this.held.add(threadId);
    try {
      return await this.record(applyOutcome(delivery, await attempt({ ...delivery })), 'attempted');
    } finally {
      this.held.delete(threadId);
    }
  }

  async redeliver(threadId: string, to: string | undefined) {
    const delivery = this.deliveries.get(threadId);
    if (delivery?.status !== 'failed' && delivery?.status !== 'no_recipient') return undefined;
    const queued = await this.record(requeued(delivery, to), 'redelivered');
    this.enqueue(threadId);
    return queued;
  }

  async start(handler: DeliveryHandler) {
    this.handler = handler;
    for (const threadId of this.pending) this.run(threadId, 0);
    this.pending.clear();
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
    return { ...delivery };
  }

  private enqueue(threadId: string) {
    if (this.handler) this.run(threadId, 0);
    else this.pending.add(threadId);
  }

  /** Runs the job now (or after `waitMs`); a throw runs it again after the policy's wait. */
  private run(threadId: string, retryCount: number, waitMs = 0) {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      const lastTry = retryCount >= this.retry.maxAttempts - 1;
      this.handler?.(threadId, lastTry).catch(() => {
        // Deferred, or not recorded (the runner logged it): the job runs again, as pg-boss's would.
        if (!lastTry) this.run(threadId, retryCount + 1, retryDelayMs(this.retry, retryCount));
      });
    }, waitMs);
    this.timers.add(timer);
  }
}
