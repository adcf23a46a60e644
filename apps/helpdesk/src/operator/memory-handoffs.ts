import type { Outbox } from '@repo/webhooks';
import {
  EVENTS_PAGE,
  notInQueue,
  type ConversationEvent,
  type Handoff,
  type HandoffChange,
  type HandoffUpdate,
  type Handoffs,
  type NewConversationEvent,
} from './handoffs.js';

/** Events kept in memory at most; the oldest go first (a stream further behind starts over). */
const MAX_EVENTS = 10_000;

/** The queue and the live events in this process's memory (no DATABASE_URL). */
export class MemoryHandoffs implements Handoffs {
  private readonly entries = new Map<string, Handoff>();
  private readonly events: ConversationEvent[] = [];
  private lastId = 0;

  constructor(
    private readonly clock: () => number,
    private readonly outbox?: Outbox,
  ) {}

  async get(sessionId: string): Promise<Handoff | undefined> {
    return this.entries.get(sessionId);
  }

  async list(): Promise<Handoff[]> {
    return [...this.entries.values()];
  }

  async request(entry: Handoff, change: HandoffChange): Promise<void> {
    if (this.entries.has(entry.session_id)) return;
    this.entries.set(entry.session_id, entry);
    await this.commit(change);
  }

  async change(sessionId: string, update: HandoffUpdate): Promise<Handoff | undefined> {
    const current = this.entries.get(sessionId);
    if (!current) throw notInQueue(sessionId);
    const next = update(current);
    if (next.entry) this.entries.set(sessionId, next.entry);
    else this.entries.delete(sessionId);
    await this.commit(next);
    return next.entry;
  }

  async record(event: NewConversationEvent): Promise<ConversationEvent> {
    const recorded = { ...event, id: ++this.lastId, at: new Date(this.clock()).toISOString() };
    this.events.push(recorded);
    if (this.events.length > MAX_EVENTS) this.events.shift();
    return recorded;
  }

  async eventsAfter(after: number, sessionId?: string) {
    return this.events
      .filter((event) => event.id > after && (!sessionId || event.session_id === sessionId))
      .slice(0, EVENTS_PAGE);
  }

  async cursor(): Promise<number> {
    return this.lastId;
  }

  async claimOverdue(before: Date, now: Date): Promise<Handoff[]> {
    const overdue: Handoff[] = [];
    for (const entry of this.entries.values()) {
      if (entry.state !== 'waiting' || entry.wait_notified_at) continue;
      if (Date.parse(entry.requested_at) > before.getTime()) continue;
      const told = { ...entry, wait_notified_at: now.toISOString() };
      this.entries.set(entry.session_id, told);
      overdue.push(told);
    }
    return overdue;
  }

  async forget(sessionId: string): Promise<void> {
    this.entries.delete(sessionId);
    const kept = this.events.filter((event) => event.session_id !== sessionId);
    this.events.splice(0, this.events.length, ...kept);
  }

  /** Nothing to do: memory keeps only the latest MAX_EVENTS anyway. */
  async forgetOrphanEvents(): Promise<void> {}

  private async commit(change: HandoffChange): Promise<void> {
    await this.record(change.event);
    if (change.announce.length > 0) await this.outbox?.publish(change.announce);
  }
}
