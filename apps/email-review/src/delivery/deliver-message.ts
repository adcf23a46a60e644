import type { Logger } from 'pino';
import type { Delivery } from './delivery.js';
import { classifyDeliveryFailure } from './delivery-failure.js';
import { DeliveryDeferred, type DeliveryOutcome, type DeliveryStore } from './delivery-store.js';
import type { MailTransport } from './mail-transport.js';

export interface DeliveryWorkerDeps {
  store: DeliveryStore;
  transport: MailTransport;
  logger: Logger;
  clock?: () => Date;
}

/**
 * One attempt: accepted → delivered (`logged` without SMTP); transient → queued for the queue's
 * retry, or failed on the last try; permanent → failed.
 */
async function attemptDelivery(
  deps: DeliveryWorkerDeps,
  delivery: Delivery,
  lastTry: boolean,
): Promise<DeliveryOutcome> {
  const now = deps.clock?.() ?? new Date();
  const log = {
    thread_id: delivery.thread_id,
    message_id: delivery.message_id,
    attempt: delivery.attempts + 1,
  };
  try {
    const reply = await deps.transport.send(delivery);
    if (deps.transport.kind === 'log')
      return { status: 'logged', last_response: null, delivered_at: now.toISOString() };
    deps.logger.info(log, 'email delivered');
    return { status: 'delivered', last_response: reply, delivered_at: now.toISOString() };
  } catch (error) {
    const failure = classifyDeliveryFailure(error);
    const outcome = { last_error: failure.message, last_response: failure.response };
    if (failure.permanent || lastTry) {
      deps.logger.warn({ ...log, reason: failure.message }, 'email delivery failed');
      return { status: 'failed', ...outcome };
    }
    deps.logger.warn({ ...log, reason: failure.message }, 'email delivery deferred');
    return { status: 'queued', ...outcome };
  }
}

/**
 * What the queue runs for each job: one attempt at the thread's message, if it is queued and free.
 * A deferred attempt throws DeliveryDeferred once recorded, so that the queue retries the job.
 */
export function deliverMessage(deps: DeliveryWorkerDeps) {
  return async (threadId: string, lastTry: boolean) => {
    const outcome = await deps.store.attempt(threadId, (delivery) =>
      attemptDelivery(deps, delivery, lastTry),
    );
    if (outcome?.status === 'queued') throw new DeliveryDeferred(threadId);
  };
}
