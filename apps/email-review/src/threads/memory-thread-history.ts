import type { HistoryEvent, ThreadHistory } from './thread-history.js';

/**
 * Memory mode's history. Appended by the memory thread index in the same synchronous step as the
 * view it records, which is memory mode's transaction.
 */
export class MemoryThreadHistory implements ThreadHistory {
  private readonly events = new Map<string, HistoryEvent[]>();

  append(threadId: string, events: readonly HistoryEvent[]): void {
    if (events.length === 0) return;
    const list = this.events.get(threadId) ?? [];
    list.push(...events.map((event) => ({ ...event })));
    this.events.set(threadId, list);
  }

  async list(threadId: string): Promise<HistoryEvent[]> {
    return (this.events.get(threadId) ?? []).map((event) => ({ ...event }));
  }
}
