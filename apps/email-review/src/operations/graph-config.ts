/**
 * How operations run the graph. `durability: 'exit'` writes one checkpoint when a run stops (paused
 * before `send`, finished, or failed) instead of one per step. invoke() resolves only after that
 * write, so every state a client has been told about is durable; what is lost in a crash is a run
 * still in progress, whose thread stays `drafting` in the index and can be retried.
 */
export const runConfig = (threadId: string) => ({
  configurable: { thread_id: threadId },
  durability: 'exit' as const,
});

/** How operations read or record a thread's state (getState, updateState). */
export const stateConfig = (threadId: string) => ({ configurable: { thread_id: threadId } });
