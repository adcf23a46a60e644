import type { Thread } from '../threads/thread.js';
import { DeliveryNotFailed } from '../threads/thread-errors.js';
import { getThread } from './get-thread.js';
import { log, now, type OperationDeps } from './operation-deps.js';

/** Queues a failed delivery again (after the cause was fixed); 409 unless its delivery failed. */
export async function redeliverThread(deps: OperationDeps, threadId: string): Promise<Thread> {
  const thread = await getThread(deps, threadId);
  const delivery = await deps.deliveries.redeliver(threadId, now(deps));
  if (!delivery) throw new DeliveryNotFailed(await getThread(deps, threadId).catch(() => thread));
  log(deps).info({ thread_id: threadId, message_id: delivery.message_id }, 'delivery queued again');
  return getThread(deps, threadId);
}
