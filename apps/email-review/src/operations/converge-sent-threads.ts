import { getThread } from './get-thread.js';
import { log, type OperationDeps } from './operation-deps.js';
import { recordSent } from './record-sent.js';

/**
 * What the delivery sweep does, at start-up and periodically, so that no crash needs a human:
 * threads committed as `sent` whose checkpoint missed it (approve died between its two writes) get
 * it recorded, and queued messages whose job was lost are queued again. Skips threads someone holds.
 */
export async function convergeSentThreads(
  deps: OperationDeps,
  options: { staleMs: number },
): Promise<{ checkpointed: number; requeued: number }> {
  let checkpointed = 0;
  for (const threadId of await deps.deliveries.uncheckpointed()) {
    const lease = await deps.locks.tryAcquire(threadId);
    if (!lease) continue;
    try {
      const [thread, delivery] = await Promise.all([
        getThread(deps, threadId),
        deps.deliveries.get(threadId),
      ]);
      if (delivery && (await recordSent(deps, delivery, thread.sent_at ?? thread.updated_at)))
        checkpointed += 1;
    } finally {
      await lease.release();
    }
  }
  const requeued = await deps.deliveries.requeueStale(options.staleMs);
  if (checkpointed + requeued > 0)
    log(deps).info({ checkpointed, requeued }, 'delivery sweep finished threads left by a crash');
  return { checkpointed, requeued };
}
