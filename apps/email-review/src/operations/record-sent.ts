import type { Delivery } from '../delivery/delivery.js';
import { stateConfig } from './graph-config.js';
import { log, type OperationDeps } from './operation-deps.js';

/**
 * Completes the checkpoint of a thread whose approval is committed: `sent` recorded as the output of
 * the `send` step (which never runs in the service), so the graph ends. Second to the approval's
 * transaction; when it cannot be written (a crash, the database gone), the delivery sweep writes it
 * later (convergeSentThreads). Never throws.
 */
export async function recordSent(
  deps: Pick<OperationDeps, 'graph' | 'deliveries' | 'logger'>,
  delivery: Pick<Delivery, 'thread_id' | 'body'>,
  at: string,
  /** The caller saw the checkpoint paused before `send` under the lease it still holds (approve). */
  pausedAtSend = false,
): Promise<boolean> {
  const config = stateConfig(delivery.thread_id);
  try {
    if (pausedAtSend || (await deps.graph.getState(config)).next.includes('send'))
      await deps.graph.updateState(config, { sent: { at, text: delivery.body } }, 'send');
    await deps.deliveries.markCheckpointed(delivery.thread_id);
    return true;
  } catch (error) {
    log(deps).warn(
      { err: error, thread_id: delivery.thread_id },
      'sent thread not checkpointed yet; the sweep will finish it',
    );
    return false;
  }
}
