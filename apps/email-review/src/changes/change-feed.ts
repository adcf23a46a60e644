import type { ThreadChange } from './thread-change.js';

export type ChangeListener = (change: ThreadChange) => void;

/** The answer to a resume: what came after the client's last event, or `gap` when it is too old. */
export type Replay = { changes: ThreadChange[] } | { gap: true };

/**
 * The thread changes this instance has seen, in the order it saw them (in PostgreSQL mode, every
 * instance sees them in commit order), and who listens. The last `window` changes are kept for
 * resumes (`Last-Event-ID`); an id older than that is a gap, after which a client reloads.
 */
export class ChangeFeed {
  private readonly recent: ThreadChange[] = [];
  private readonly listeners = new Set<ChangeListener>();

  constructor(private readonly window = 1_000) {}

  publish(change: ThreadChange): void {
    this.recent.push(change);
    if (this.recent.length > this.window) this.recent.shift();
    for (const listener of this.listeners) listener(change);
  }

  /** Changes after `lastId`, in order. */
  after(lastId: string): Replay {
    const index = this.recent.findIndex((change) => change.id === lastId);
    if (index < 0) return { gap: true };
    return { changes: this.recent.slice(index + 1) };
  }

  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
