import { MemorySaver } from '@langchain/langgraph';
import { MemoryThreadLocks } from '../locks/memory-thread-locks.js';
import { MemoryOutbox } from '../mailer/outbox.js';
import { MemoryThreadStore } from '../threads/memory-thread-store.js';
import type { Persistence } from './persistence.js';

export function createMemoryPersistence(): Persistence {
  return {
    kind: 'memory',
    checkpointer: new MemorySaver(),
    threads: new MemoryThreadStore(),
    outbox: new MemoryOutbox(),
    locks: new MemoryThreadLocks(),
    close: async () => {},
  };
}
