import type { Thread } from '../threads/thread.js';
import type { ChangeFeed } from './change-feed.js';

/** Memory mode: the thread store reports each write here; ids count up within the process. */
export function memoryChangeReporter(feed: ChangeFeed) {
  let seq = 0;
  return (type: 'thread.created' | 'thread.updated', thread: Thread, before?: Thread) => {
    if (
      before &&
      before.status === thread.status &&
      before.revision === thread.revision &&
      (before.delivery?.status ?? null) === (thread.delivery?.status ?? null)
    ) {
      return;
    }
    seq += 1;
    feed.publish({
      id: String(seq),
      type,
      thread_id: thread.thread_id,
      status: thread.status,
      revision: thread.revision,
      delivery: thread.delivery?.status ?? null,
    });
  };
}

export type ChangeReporter = ReturnType<typeof memoryChangeReporter>;
