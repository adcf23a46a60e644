import type { ThreadChange } from './thread-change.js';

type ChangeListener = (change: ThreadChange) => void;

/** The answer to a resume: what came after the client's last event, or `gap` when it is too old. */
export type Replay = { changes: ThreadChange[] } | { gap: true };

/**
 * The thread changes this instance has seen, in commit order, and who listens. The last `window`
 * are kept for resumes (`Last-Event-ID`); an older id is a gap, after which a client reloads.
 */
export class ChangeFeed {
  private readonly recent: ThreadChange[] = [];
  private readonly listeners = new Set<ChangeListener>();
  private readonly closers = new Set<() => void>();

  constructor(private readonly window = 1_000) {}

  publish(change: ThreadChange): void {
    this.recent.push(change);
    if (this.recent.length > this.window) this.recent.shift();
    for (const listener of this.listeners) listener(change);
  }

  /** Open subscriptions (streams). */
  get subscribers(): number {
    return this.listeners.size;
  }

  /** Changes after `lastId`, in order. */
  after(lastId: string): Replay {
    const index = this.recent.findIndex((change) => change.id === lastId);
    if (index < 0) return { gap: true };
    return { changes: this.recent.slice(index + 1) };
  }

  /** `onClose`: the feed is closing (the service shuts down): end the stream. */
  subscribe(listener: ChangeListener, onClose: () => void = () => undefined): () => void {
    this.listeners.add(listener);
    this.closers.add(onClose);
    return () => {
      this.listeners.delete(listener);
      this.closers.delete(onClose);
    };
  }

  /** Tells every subscriber to end: streams must not hold a shutdown's drain. */
  close(): void {
    for (const onClose of [...this.closers]) onClose();
  }

  /**
   * Changes may have been missed (the listener was disconnected): the window is emptied and every
   * stream ended, so each client reconnects and is told to reload instead of resuming past a hole.
   */
  gap(): void {
    this.recent.length = 0;
    this.close();
  }
}
