/**
 * How a model job runs the graph. `durability: 'sync'` writes a checkpoint after each step, before
 * the next one starts: a job rerun after a crash (src/operations/run-model-job.ts) does not repeat a
 * model call whose step finished (a classification survives a crash in the middle of the draft).
 */
export const runConfig = (threadId: string) => ({
  configurable: { thread_id: threadId },
  durability: 'sync' as const,
});

/** How operations read or record a thread's state (getState, updateState). */
export const stateConfig = (threadId: string) => ({ configurable: { thread_id: threadId } });
