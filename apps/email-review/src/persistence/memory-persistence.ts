import { MemorySaver } from '@langchain/langgraph';
import { MemoryDeliveries } from '../delivery/memory-deliveries.js';
import { MemoryThreadLocks } from '../locks/memory-thread-locks.js';
import { MemoryThreadStore } from '../threads/memory-thread-store.js';
import type { Persistence } from './persistence.js';

export function createMemoryPersistence(): Persistence {
  const threads = new MemoryThreadStore();
  const deliveries = new MemoryDeliveries(threads);
  const checkpointer = new MemorySaver();
  let decisions: Promise<unknown> = Promise.resolve();
  return {
    kind: 'memory',
    checkpointer,
    // One decision at a time: each reads and writes the maps without another one in between.
    decide: (work) => {
      const decided = decisions.then(() => work({ checkpointer }));
      decisions = decided.catch(() => undefined);
      return decided;
    },
    threads,
    history: threads.history,
    deliveries,
    locks: new MemoryThreadLocks(),
    close: () => deliveries.stop(),
  };
}
