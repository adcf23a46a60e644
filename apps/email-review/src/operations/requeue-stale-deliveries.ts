import { log, type OperationDeps } from './operation-deps.js';

/**
 * What the delivery sweep does, at start-up and periodically, so that no crash needs a human:
 * queued messages whose job was lost are queued again.
 */
export async function requeueStaleDeliveries(
  deps: Pick<OperationDeps, 'deliveries' | 'logger'>,
  options: { staleMs: number },
): Promise<{ requeued: number }> {
  const requeued = await deps.deliveries.requeueStale(options.staleMs);
  if (requeued > 0) log(deps).info({ requeued }, 'delivery sweep queued lost deliveries again');
  return { requeued };
}
