import { MemorySaver } from '@langchain/langgraph';
import { MemoryDeliveries } from '../delivery/memory-deliveries.js';
import { MemoryThreadStore } from '../threads/memory-thread-store.js';
import type { RetryPolicy } from '../delivery/retry-policy.js';
import { inProcessModelJobs } from './model-jobs.js';
import type { Persistence } from './persistence.js';

/** Everything in process; `retry`: how deferred deliveries are retried (the default policy unless set). */
export function createMemoryPersistence(options: { retry?: RetryPolicy } = {}): Persistence {
  const threads = new MemoryThreadStore();
  const deliveries = new MemoryDeliveries(threads, options.retry);
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
    modelJobs: inProcessModelJobs(),
    close: () => deliveries.stop(),
  };
}
