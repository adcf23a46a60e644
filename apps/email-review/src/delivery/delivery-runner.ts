import { DatabaseUnavailable } from '@repo/pg-kit';
import type { Logger } from 'pino';
import { deliverMessage, type DeliveryWorkerDeps } from './deliver-message.js';
import { DeliveryDeferred } from './delivery-store.js';

export interface DeliveryRunnerDeps extends DeliveryWorkerDeps {
  /** The sweep: finishes sent threads a crash left between approval and checkpoint. */
  sweep: () => Promise<unknown>;
  sweepMs: number;
  logger: Logger;
}

/**
 * The instance's delivery worker: takes jobs from the queue, and runs the sweep at start-up and
 * every `sweepMs`, so that what a crash left behind converges with nobody calling anything.
 */
export function createDeliveryRunner(deps: DeliveryRunnerDeps) {
  const deliver = deliverMessage(deps);
  let timer: NodeJS.Timeout | undefined;
  let sweeping: Promise<unknown> | undefined;
  const sweep = () => {
    sweeping ??= deps
      .sweep()
      .catch((error: unknown) => {
        // While the database is away the outage is logged once (pg-kit's DatabaseHealth), not per sweep.
        if (!(error instanceof DatabaseUnavailable))
          deps.logger.warn({ err: error }, 'delivery sweep failed');
      })
      .finally(() => (sweeping = undefined));
    return sweeping;
  };
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
      void sweep();
      timer = setInterval(() => void sweep(), deps.sweepMs);
    },
    /** One sweep now (tests; start-up runs one). */
    sweep,
    async stop() {
      clearInterval(timer);
      await sweeping;
      await deps.store.stop();
      deps.transport.close();
    },
  };
}

export type DeliveryRunner = ReturnType<typeof createDeliveryRunner>;
