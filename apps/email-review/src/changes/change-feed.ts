import { z } from 'zod';

/** One change of a thread as GET /events tells it: enough to know what to reload, no email text. */
export const threadChangeSchema = z.object({
  id: z.string().describe('The event id (also its SSE `id:` line), for `Last-Event-ID`.'),
  type: z.enum(['thread.created', 'thread.updated']),
  thread_id: z.string(),
  status: z.string(),
  revision: z.number().int(),
  delivery: z.string().nullable().describe('The delivery status, once approved.'),
});

export type ThreadChange = z.infer<typeof threadChangeSchema>;

type ChangeListener = (change: ThreadChange) => void;

/**
 * The thread changes this instance has seen, in commit order, and who listens. The last `window`
 * are kept for resumes (`Last-Event-ID`); an older id is a gap, after which a client reloads.
 */
export class ChangeFeed {
  private readonly recent: ThreadChange[] = [];
  /** Each listener, and what ends its stream when the feed closes. */
  private readonly subscriptions = new Map<ChangeListener, () => void>();

  constructor(private readonly window = 1_000) {}

  publish(change: ThreadChange): void {
    this.recent.push(change);
    if (this.recent.length > this.window) this.recent.shift();
    for (const listener of this.subscriptions.keys()) listener(change);
  }

  /** Open subscriptions (streams). */
  get subscribers(): number {
    return this.subscriptions.size;
  }

  /** Changes after `lastId`, in order; `gap` when `lastId` is older than the window. */
  after(lastId: string): { changes: ThreadChange[] } | { gap: true } {
    const index = this.recent.findIndex((change) => change.id === lastId);
    if (index < 0) return { gap: true };
    return { changes: this.recent.slice(index + 1) };
  }

  /** `onClose`: the feed is closing (the service shuts down): end the stream. */
  subscribe(listener: ChangeListener, onClose: () => void = () => undefined): () => void {
    this.subscriptions.set(listener, onClose);
    return () => this.subscriptions.delete(listener);
  }

  /** Tells every subscriber to end: streams must not hold a shutdown's drain. */
  close(): void {
    for (const onClose of [...this.subscriptions.values()]) onClose();
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
