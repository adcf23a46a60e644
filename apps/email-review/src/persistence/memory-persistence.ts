import { MemorySaver } from '@langchain/langgraph';
import { MemoryDeliveries } from '../delivery/memory-deliveries.js';
import { MemoryThreadLocks } from '../locks/memory-thread-locks.js';
import { MemoryThreadStore } from '../threads/memory-thread-store.js';
import type { Persistence } from './persistence.js';

export function createMemoryPersistence(): Persistence {
  const threads = new MemoryThreadStore();
  const deliveries = new MemoryDeliveries(threads);
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
