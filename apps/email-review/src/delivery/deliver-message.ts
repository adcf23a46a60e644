import type { Logger } from 'pino';
import type { Delivery } from './delivery.js';
import { classifyDeliveryFailure } from './delivery-failure.js';
import type { DeliveryOutcome, DeliveryStore } from './delivery-store.js';
import type { MailTransport } from './mail-transport.js';
import { nextRetryDelay, type RetryPolicy } from './retry-policy.js';

export interface DeliveryWorkerDeps {
  store: DeliveryStore;
  transport: MailTransport;
  policy: RetryPolicy;
  logger: Logger;
  clock?: () => Date;
}

/** One attempt: accepted → delivered; transient → queued for later, or failed once attempts run out; permanent → failed. */
async function attemptDelivery(
  deps: DeliveryWorkerDeps,
  delivery: Delivery,
): Promise<DeliveryOutcome> {
  const now = deps.clock?.() ?? new Date();
  const log = {
    thread_id: delivery.thread_id,
    message_id: delivery.message_id,
    attempt: delivery.attempts + 1,
  };
  try {
    const reply = await deps.transport.send(delivery);
    deps.logger.info(log, 'email delivered');
    return { status: 'delivered', server_reply: reply, delivered_at: now.toISOString() };
  } catch (error) {
    const failure = classifyDeliveryFailure(error);
    const delay = failure.permanent
      ? undefined
      : nextRetryDelay(deps.policy, delivery.attempts + 1);
    if (delay === undefined) {
      deps.logger.warn({ ...log, reason: failure.message }, 'email delivery failed');
      return { status: 'failed', last_error: failure.message };
    }
    deps.logger.warn(
      { ...log, reason: failure.message, retry_in_ms: delay },
      'email delivery deferred',
    );
    return {
      status: 'queued',
      last_error: failure.message,
      next_attempt_at: new Date(now.getTime() + delay).toISOString(),
    };
  }
}

/** What the queue runs for each job: one attempt at the thread's message, if it is due and free. */
export function deliverMessage(deps: DeliveryWorkerDeps) {
  return (threadId: string) =>
    deps.store.attempt(threadId, (delivery) => attemptDelivery(deps, delivery));
}
