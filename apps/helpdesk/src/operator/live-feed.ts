import { EVENTS_PAGE, type ConversationEvent, type Handoffs } from './handoffs.js';

const POLL_MS = 200;

/**
 * One reader of the conversations' live events per process, however many streams are open: every
 * 200 ms while anyone listens, it hands what is new (from every instance) to each listener.
 */
export class LiveFeed {
  /** Each listener, and how to end its stream (shutdown: they never end by themselves). */
  private readonly listeners = new Map<(events: ConversationEvent[]) => void, () => void>();
  private cursor: Promise<number> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private reading = false;

  /** `source`: where the events are read; streams read their past there too. */
  constructor(readonly source: Pick<Handoffs, 'eventsAfter' | 'cursor'>) {}

  /**
   * Listens from now on until the returned function is called (or endAll() calls `end`). Resolves
   * once the feed's position is fixed: the past a listener then reads ends where the feed begins.
   */
  async subscribe(
    listener: (events: ConversationEvent[]) => void,
    end: () => void,
  ): Promise<() => void> {
    this.listeners.set(listener, end);
    this.timer ??= setInterval(() => void this.poll(), POLL_MS).unref();
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

  /** Ends every open stream (shutdown): clients reconnect with Last-Event-ID, missing nothing. */
  endAll(): void {
    for (const end of [...this.listeners.values()]) end();
    this.listeners.clear();
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
        for (const listener of this.listeners.keys()) listener(events);
        if (events.length < EVENTS_PAGE) break;
      }
    } catch {
      // The database away: the next tick tries again; streams stay open meanwhile.
    } finally {
      this.reading = false;
    }
  }
}
