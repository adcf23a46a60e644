import type { Thread } from '../threads/thread.js';
import { DeliveryNotFailed, RecipientRequired } from '../threads/thread-errors.js';
import { getThread } from './get-thread.js';
import { log, type OperationDeps } from './thread-service.js';

/**
 * Queues a `failed` delivery again (after the cause was fixed), or sends a `no_recipient` one, to
 * `to` when given; 409 unless its delivery failed or had no recipient, 422 for no recipient still.
 */
export async function redeliverThread(
  deps: OperationDeps,
  threadId: string,
  to?: string,
): Promise<Thread> {
  const thread = await getThread(deps, threadId);
  if (thread.delivery?.status === 'no_recipient' && !to) throw new RecipientRequired(thread);
  const delivery = await deps.deliveries.redeliver(threadId, to);
  if (!delivery) throw new DeliveryNotFailed(await getThread(deps, threadId).catch(() => thread));
  log(deps).info({ thread_id: threadId, message_id: delivery.message_id }, 'delivery queued again');
  return getThread(deps, threadId);
}
