import type { Logger } from 'pino';
import type { Delivery } from './delivery.js';
import { classifyDeliveryFailure } from './delivery-failure.js';
import { DeliveryDeferred, type DeliveryOutcome, type DeliveryStore } from './delivery-store.js';
import type { MailTransport } from './mail-transport.js';

interface DeliveryRunnerDeps {
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
  deps: DeliveryRunnerDeps,
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
 * The instance's delivery worker: one attempt per job the store's queue hands out. A deferred
 * attempt throws DeliveryDeferred once recorded, so that the queue retries the job; nothing else is
 * needed after a crash, since the queue hands a dead worker's job out again.
 */
export function createDeliveryRunner(deps: DeliveryRunnerDeps) {
  return {
    start: () =>
      deps.store.start(async (threadId, lastTry) => {
        const recorded = await deps.store
          .attempt(threadId, (delivery) => attemptDelivery(deps, delivery, lastTry))
          .catch((error: unknown) => {
            deps.logger.warn({ err: error, thread_id: threadId }, 'delivery attempt not recorded');
            throw error;
          });
        if (recorded?.status === 'queued') throw new DeliveryDeferred(threadId);
      }),
    async stop() {
      await deps.store.stop();
      await deps.transport.close();
    },
  };
}
