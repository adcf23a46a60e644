/** Proof of holding one thread's lock; release it exactly once. */
export interface ThreadLease {
  release(): Promise<void>;
}

/**
 * Per-thread mutual exclusion for every change to a thread. LangGraph has no single-writer guarantee:
 * two concurrent resumes of one thread would both run `send`.
 */
export interface ThreadLocks {
  /** Takes the lock if it is free; `undefined` when someone holds it (callers refuse at once, never queue). */
  tryAcquire(threadId: string): Promise<ThreadLease | undefined>;
}
