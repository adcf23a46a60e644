import { MemorySaver } from '@langchain/langgraph';
import { MemoryDeliveries } from '../delivery/memory-deliveries.js';
import { MemoryThreadLocks } from '../locks/memory-thread-locks.js';
import { MemoryThreadStore } from '../threads/memory-thread-store.js';
import type { RetryPolicy } from '../delivery/retry-policy.js';
import type { Persistence } from './persistence.js';

/** Everything in process; `retry`: how deferred deliveries are retried (the default policy unless set). */
export function createMemoryPersistence(options: { retry?: RetryPolicy } = {}): Persistence {
  const threads = new MemoryThreadStore();
  const deliveries = new MemoryDeliveries(threads, options.retry);
  return {
    kind: 'memory',
    checkpointer: new MemorySaver(),
    threads,
    history: threads.history,
    deliveries,
    locks: new MemoryThreadLocks(),
    close: () => deliveries.stop(),
  };
}
