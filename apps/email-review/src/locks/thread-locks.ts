/** Proof of holding one thread's lock; release it exactly once. */
export interface ThreadLease {
  release(): Promise<void>;
  /**
   * Who holds it, where a lease can expire under a stalled holder and pass to another (PostgreSQL):
   * the thread's writes are fenced with it, so a holder that lost its lease writes nothing.
   */
  owner?: string;
}

/**
 * Per-thread mutual exclusion for every change to a thread. LangGraph has no single-writer guarantee:
 * two concurrent resumes of one thread would both run `send`.
 */
export interface ThreadLocks {
  /** Takes the lock if it is free; `undefined` when someone holds it (callers refuse at once, never queue). */
  tryAcquire(threadId: string): Promise<ThreadLease | undefined>;
}
