import { getThread } from './get-thread.js';
import { log, type OperationDeps } from './operation-deps.js';
import { recordSent } from './record-sent.js';

/**
 * What the delivery sweep does, at start-up and periodically, so that no crash needs a human:
 * threads committed as `sent` whose checkpoint missed it (approve died between its two writes) get
 * it recorded. Skips threads someone holds. (A queued message's job is committed with it, and pg-boss
 * retries it and hands a dead worker's job out again: no job is lost.)
 */
export async function convergeSentThreads(deps: OperationDeps): Promise<{ checkpointed: number }> {
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
  if (checkpointed > 0)
    log(deps).info({ checkpointed }, 'delivery sweep finished threads left by a crash');
  return { checkpointed };
}
