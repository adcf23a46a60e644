import { Mutex } from 'async-mutex';
import { tooManyWaiting } from './session-busy.js';

interface Queue {
  readonly mutex: Mutex;
  pending: number;
}

/**
 * One in-process queue per session with work: tasks run one at a time, beyond `limit` refused (429
 * `session_busy`). Queues exist only while they hold work, so memory follows the sessions in use.
 */
export class SessionQueues {
  private readonly queues = new Map<string, Queue>();

  constructor(private readonly limit: number) {}

  pending(sessionId: string): number {
    return this.queues.get(sessionId)?.pending ?? 0;
  }

  async run<T>(sessionId: string, task: () => Promise<T>): Promise<T> {
    if (this.pending(sessionId) >= this.limit) throw tooManyWaiting(sessionId, this.limit);
    let queue = this.queues.get(sessionId);
    if (!queue) {
      queue = { mutex: new Mutex(), pending: 0 };
      this.queues.set(sessionId, queue);
    }
    queue.pending += 1;
    try {
      return await queue.mutex.runExclusive(task);
    } finally {
      queue.pending -= 1;
      if (queue.pending === 0) this.queues.delete(sessionId);
    }
  }
}
