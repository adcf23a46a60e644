import { EVENTS_PAGE, type ConversationEvent, type Handoffs } from './handoffs.js';

/**
 * One reader of the conversations' live events per process, however many streams are open: every
 * `intervalMs` while anyone listens, it hands what is new (from every instance) to each listener.
 */
export class LiveFeed {
  private readonly listeners = new Set<(events: ConversationEvent[]) => void>();
  /** How to end each open stream (shutdown: they never end by themselves). */
  private readonly enders = new Set<() => void>();
  private cursor: Promise<number> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private reading = false;

  constructor(
    /** Where the events are read; streams read their past there too. */
    readonly source: Pick<Handoffs, 'eventsAfter' | 'cursor'>,
    private readonly intervalMs = 200,
  ) {}

  /**
   * Listens from now on. Resolves once the feed's position is fixed: whatever a listener then
   * reads of the past with `eventsAfter` ends at or after where the feed begins.
   */
  async subscribe(listener: (events: ConversationEvent[]) => void): Promise<() => void> {
    this.listeners.add(listener);
    this.timer ??= setInterval(() => void this.poll(), this.intervalMs).unref();
    const unsubscribe = () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stop();
    };
    try {
      await (this.cursor ??= this.source.cursor());
    } catch (error) {
      this.cursor = undefined;
      unsubscribe();
      throw error;
    }
    return unsubscribe;
  }

  /** Keeps `end` until the returned function is called; endAll() calls it. */
  track(end: () => void): () => void {
    this.enders.add(end);
    return () => this.enders.delete(end);
  }

  /** Ends every open stream (shutdown): clients reconnect with Last-Event-ID, missing nothing. */
  endAll(): void {
    for (const end of [...this.enders]) end();
    this.enders.clear();
    this.stop();
  }

  private stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.cursor = undefined;
  }

  private async poll(): Promise<void> {
    if (this.reading || !this.cursor) return;
    this.reading = true;
    try {
      let after = await this.cursor;
      for (;;) {
        const events = await this.source.eventsAfter(after);
        if (events.length === 0) break;
        after = events.at(-1)!.id;
        this.cursor = Promise.resolve(after);
        for (const listener of this.listeners) listener(events);
        if (events.length < EVENTS_PAGE) break;
      }
    } catch {
      // The database away: the next tick tries again; streams stay open meanwhile.
    } finally {
      this.reading = false;
    }
  }
}
