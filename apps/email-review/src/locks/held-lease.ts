import { AsyncLocalStorage } from 'node:async_hooks';
import type { ThreadLease } from './thread-locks.js';

const held = new AsyncLocalStorage<{ threadId: string; lease: ThreadLease }>();

/** Runs `change` as the holder of `lease`: the stores fence the thread's writes with it. */
export function runHolding<T>(
  threadId: string,
  lease: ThreadLease,
  change: () => Promise<T>,
): Promise<T> {
  return held.run({ threadId, lease }, change);
}

/**
 * The owner of the lease the running change holds on `threadId`, if its lease has one (PostgreSQL
 * leases do; memory locks, which cannot expire under their holder, need no fence).
 */
export function heldLeaseOwner(threadId: string): string | undefined {
  const current = held.getStore();
  return current?.threadId === threadId ? current.lease.owner : undefined;
}
