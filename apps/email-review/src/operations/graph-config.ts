/**
 * How a model job runs the graph. `durability: 'exit'` writes one checkpoint when the run stops
 * (paused for review, or failed: a retry then skips the steps that finished). Per step (`sync`) it
 * wrote 41 rows a lifecycle instead of 25 and waited on six more statements a run; what it saved is
 * only the classification of a run a crash cut short, which the job's rerun asks for again (the
 * issue's bound: one classify and one draft more per thread).
 */
export const runConfig = (threadId: string) => ({
  configurable: { thread_id: threadId },
  durability: 'exit' as const,
});

/** How operations read or record a thread's state (getState, updateState). */
export const stateConfig = (threadId: string) => ({ configurable: { thread_id: threadId } });
