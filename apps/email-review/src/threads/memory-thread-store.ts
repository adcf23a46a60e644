import type { HistoryEvent, ThreadHistory } from './thread-history.js';
import { countsByStatus, type Thread } from './thread.js';
import type { ChangeFeed } from '../changes/change-feed.js';
import type { ThreadWebhooks } from '../webhooks/thread-webhooks.js';
import type {
  ListQuery,
  NewThread,
  ThreadChange,
  ThreadPage,
  ThreadStore,
} from './thread-store.js';

/** The thread index for memory mode: lost with the process, like MemorySaver's checkpoints. */
export class MemoryThreadStore implements ThreadStore {
  private readonly threads = new Map<string, Thread>();
  private readonly byIdempotencyKey = new Map<string, string>();
  /** Thread ids in creation order; a thread's position is its index + 1. */
  private readonly order: string[] = [];
  private readonly events = new Map<string, HistoryEvent[]>();
  /** Memory mode's history, appended in the same synchronous step as the view it records. */
  readonly history: ThreadHistory = {
    list: async (threadId) => (this.events.get(threadId) ?? []).map((event) => ({ ...event })),
  };

  /** Memory mode's change ids (GET /events) count up within the process. */
  private changeSeq = 0;

  constructor(
    /** Told of each change of a thread's status, revision or delivery status (GET /events). */
    private readonly feed?: ChangeFeed,
    /** The webhook events each write's history reports, handed to the in-process outbox (none: no endpoints). */
    private readonly webhooks?: ThreadWebhooks,
  ) {}

  async create(_tx: unknown, { thread, idempotencyKey, events }: NewThread) {
    if (idempotencyKey !== undefined) {
      const existingId = this.byIdempotencyKey.get(idempotencyKey);
      if (existingId !== undefined)
        return { thread: { ...this.threads.get(existingId)! }, created: false };
      this.byIdempotencyKey.set(idempotencyKey, thread.thread_id);
    }
    this.threads.set(thread.thread_id, { ...thread });
    this.order.push(thread.thread_id);
    this.append(thread.thread_id, events);
    this.report('thread.created', thread);
    await this.webhooks?.publish(thread, events);
    return { thread: { ...thread }, created: true };
  }

  async get(threadId: string) {
    const thread = this.threads.get(threadId);
    return thread && { ...thread };
  }

  /** Replaces the view of an existing thread (memory deliveries' writes). */
  async save(thread: Thread, events: readonly HistoryEvent[] = []) {
    const before = this.threads.get(thread.thread_id);
    if (!before) return;
    this.threads.set(thread.thread_id, { ...thread });
    this.append(thread.thread_id, events);
    this.report('thread.updated', thread, before);
    await this.webhooks?.publish(thread, events);
  }

  async saveDecision(_tx: unknown, { view, revision, from, events }: ThreadChange) {
    const current = this.threads.get(view.thread_id);
    if (current?.status !== from || current.revision !== revision) return false;
    await this.save(view, events);
    return true;
  }

  async list(query: ListQuery): Promise<ThreadPage> {
    const threads: Thread[] = [];
    let last = 0;
    const start = Math.min(query.before ?? Infinity, this.order.length + 1) - 1;
    for (let position = start; position >= 1; position -= 1) {
      const thread = this.threads.get(this.order[position - 1]!)!;
      if (query.status && thread.status !== query.status) continue;
      if (query.delivery && thread.delivery?.status !== query.delivery) continue;
      if (threads.length === query.limit) return { threads, next: last };
      threads.push({ ...thread });
      last = position;
    }
    return { threads };
  }

  async counts() {
    const views = [...this.threads.values()];
    const count = (match: (thread: Thread) => boolean) => views.filter(match).length;
    return {
      threads: countsByStatus((status) => count((thread) => thread.status === status)),
      queuedDeliveries: count((thread) => thread.delivery?.status === 'queued'),
    };
  }

  private report(type: 'thread.created' | 'thread.updated', thread: Thread, before?: Thread) {
    const delivery = thread.delivery?.status ?? null;
    if (
      !this.feed ||
      (before?.status === thread.status &&
        before.revision === thread.revision &&
        (before.delivery?.status ?? null) === delivery)
    )
      return;
    this.changeSeq += 1;
    this.feed.publish({
      id: String(this.changeSeq),
      type,
      thread_id: thread.thread_id,
      status: thread.status,
      revision: thread.revision,
      delivery,
    });
  }

  private append(threadId: string, events: readonly HistoryEvent[]): void {
    const list = this.events.get(threadId) ?? [];
    list.push(...events.map((event) => ({ ...event })));
    this.events.set(threadId, list);
  }
}
