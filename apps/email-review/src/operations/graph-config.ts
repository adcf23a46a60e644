/**
 * How a model job runs the graph: `durability: 'exit'` writes one checkpoint when the run stops
 * (paused for review, or failed: a retry skips the steps that finished). Why not per step: see
 * docs/design.md (Checkpoints).
 */
export const runConfig = (threadId: string) => ({
  configurable: { thread_id: threadId },
  durability: 'exit' as const,
});

/** How operations read or record a thread's state (getState, updateState). */
export const stateConfig = (threadId: string) => ({ configurable: { thread_id: threadId } });
