import type { OutgoingEmail } from './mailer.js';

/**
 * Every message handed to delivery, kept beside the threads (a table, or a map in memory mode). Its
 * one-row-per-thread rule is what keeps a send at most once (see createOutboxMailer).
 */
export interface Outbox {
  /** Records the message unless one is already recorded for its thread; says whether it was new. */
  record(email: OutgoingEmail): Promise<boolean>;
  /** What was sent (for one thread, or all); how tests and operators check a send happened once. */
  list(threadId?: string): Promise<OutgoingEmail[]>;
}

export class MemoryOutbox implements Outbox {
  private readonly byThread = new Map<string, OutgoingEmail>();

  async record(email: OutgoingEmail): Promise<boolean> {
    if (this.byThread.has(email.thread_id)) return false;
    this.byThread.set(email.thread_id, { ...email });
    return true;
  }

  async list(threadId?: string): Promise<OutgoingEmail[]> {
    const all = [...this.byThread.values()];
    return threadId === undefined ? all : all.filter((email) => email.thread_id === threadId);
  }
}
