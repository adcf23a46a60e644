import type { Logger } from 'pino';
import { deliverMessage, type DeliveryWorkerDeps } from './deliver-message.js';
import { DeliveryDeferred } from './delivery-store.js';

export interface DeliveryRunnerDeps extends DeliveryWorkerDeps {
  logger: Logger;
}

/**
 * The instance's delivery worker: takes jobs from the queue. Nothing else is needed after a crash:
 * each message's job is committed with it, and the queue hands a dead worker's job out again.
 */
export function createDeliveryRunner(deps: DeliveryRunnerDeps) {
  const deliver = deliverMessage(deps);
  return {
    async start() {
      await deps.store.start(async (threadId, lastTry) => {
        try {
          await deliver(threadId, lastTry);
        } catch (error) {
          // Either way the queue runs the job again after its backoff.
          if (!(error instanceof DeliveryDeferred))
            deps.logger.warn({ err: error, thread_id: threadId }, 'delivery attempt not recorded');
          throw error;
        }
      });
    },
    async stop() {
      await deps.store.stop();
      await deps.transport.close();
    },
  };
}

export type DeliveryRunner = ReturnType<typeof createDeliveryRunner>;
