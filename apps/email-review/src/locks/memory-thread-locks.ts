import type { ThreadLease, ThreadLocks } from './thread-locks.js';

/** Locks for one process: enough in memory mode, where no other process can see the threads. */
export class MemoryThreadLocks implements ThreadLocks {
  private readonly held = new Set<string>();

  async tryAcquire(threadId: string): Promise<ThreadLease | undefined> {
    if (this.held.has(threadId)) return undefined;
    this.held.add(threadId);
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        this.held.delete(threadId);
      },
    };
  }
}
