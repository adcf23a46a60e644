import { HttpError } from '@repo/http-kit';
import { Mutex } from 'async-mutex';

/** 429 `session_busy`: too many messages of one session waiting, or its lease not free in time. */
export function sessionBusy(sessionId: string, detail: string): HttpError {
  return new HttpError(429, 'session_busy', detail, {
    extra: { session_id: sessionId },
    headers: { 'retry-after': '1' },
  });
}

/** 429 `session_busy` too: the turn's lease expired and another turn took the session over first. */
export const sessionTakenOver = (sessionId: string) =>
  sessionBusy(
    sessionId,
    `Session ${sessionId} was taken over by another turn while this one ran; this message was not recorded, retry it.`,
  );

/** One in-process queue per session with work, its tasks one at a time; gone when empty. */
export class SessionQueues {
  private readonly queues = new Map<string, { readonly mutex: Mutex; pending: number }>();

  /**
   * `limit`: tasks of one session waiting or running before `runLimited` refuses more (429).
   * `hooks`: told when a session gets work (its first task) and when its last task has ended.
   */
  constructor(
    private readonly limit: number,
    private readonly hooks: { busy?(sessionId: string): void; idle?(sessionId: string): void } = {},
  ) {}

  pending(sessionId: string): number {
    return this.queues.get(sessionId)?.pending ?? 0;
  }

  /** Runs `task` once the session's earlier tasks are done. */
  async run<T>(sessionId: string, task: () => Promise<T>): Promise<T> {
    let queue = this.queues.get(sessionId);
    if (!queue) {
      queue = { mutex: new Mutex(), pending: 0 };
      this.queues.set(sessionId, queue);
      this.hooks.busy?.(sessionId);
    }
    queue.pending += 1;
    try {
      return await queue.mutex.runExclusive(task);
    } finally {
      queue.pending -= 1;
      if (queue.pending === 0) {
        this.queues.delete(sessionId);
        this.hooks.idle?.(sessionId);
      }
    }
  }

  /** As `run`, unless `limit` tasks of the session already wait or run: then 429 `session_busy`. */
  runLimited<T>(sessionId: string, task: () => Promise<T>): Promise<T> {
    if (this.pending(sessionId) >= this.limit) {
      const detail = `Session ${sessionId} already has ${this.limit} messages waiting; retry later.`;
      return Promise.reject(sessionBusy(sessionId, detail));
    }
    return this.run(sessionId, task);
  }
}
