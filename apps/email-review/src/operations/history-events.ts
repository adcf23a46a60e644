import type { HistoryEvent } from '../threads/thread-history.js';
import type { Thread } from '../threads/thread.js';

/** What a workflow run did between two views of a thread: classified it, drafted a new revision. */
export function stepEvents(before: Thread, after: Thread, at: string): HistoryEvent[] {
  const events: HistoryEvent[] = [];
  if (after.classification && !before.classification)
    events.push({
      type: 'classified',
      at,
      actor: 'model',
      category: after.classification.category,
      urgency: after.classification.urgency,
    });
  if (after.revision > before.revision)
    events.push({ type: 'drafted', at, actor: 'model', revision: after.revision });
  return events;
}
