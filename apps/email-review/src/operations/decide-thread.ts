import type { DecisionTransaction } from '../persistence/persistence.js';
import type { Thread } from '../threads/thread.js';
import type { HistoryEvent } from '../threads/thread-history.js';
import { RevisionMismatch, ThreadMovedOn, ThreadNotFound } from '../threads/thread-errors.js';
import type { EmailGraph } from '../workflow/graph.js';
import { getThread } from './get-thread.js';
import type { OperationDeps } from './operation-deps.js';
import { requireAwaitingReview, requireRevision, type RevisionCondition } from './status-rules.js';

/** What a decision writes with: the transaction, and the graph over its saver. */
export interface Decision extends DecisionTransaction {
  graph: EmailGraph;
}

/** The view by compare-and-set, its history and the graph's deferred writes, in one statement. */
export async function saveDecision(
  deps: OperationDeps,
  decision: Decision,
  view: Thread,
  revision: number,
  events: readonly HistoryEvent[],
): Promise<boolean> {
  const checkpoint = await decision.checkpointWrites();
  return deps.threads.saveDecision(
    view,
    revision,
    events,
    decision.client,
    undefined,
    undefined,
    checkpoint,
  );
}

/**
 * A reviewer's decision on a paused thread (edit by text, approve, reject, the start of a redraft):
 * read once and checked; then the graph records the decision (`updateState`: the checkpoint read,
 * its writes deferred) and one statement writes the new view and its history by compare-and-set
 * (still `awaiting_review` at the revision read) with those checkpoint writes as its CTEs, which
 * write only when it does — so the view and the checkpoint never disagree, with no BEGIN or
 * COMMIT (`transaction`: a decision of more statements, the redraft's job, takes one). When the
 * compare-and-set finds the thread moved on, nothing was written and the thread is read again to
 * answer: 412/409 `revision_mismatch` for another revision, 409 `thread_not_awaiting_review` for
 * another status.
 */
export async function decideThread(
  deps: OperationDeps,
  threadId: string,
  condition: RevisionCondition | undefined,
  decide: (thread: Thread, decision: Decision) => Promise<Thread>,
  options?: { transaction?: boolean },
): Promise<Thread> {
  // PostgreSQL: the view and the latest checkpoint (which updateState then reads) in one query.
  const read = await deps.threads.getForDecision?.(threadId);
  const thread = read ? read.thread : await deps.threads.get(threadId);
  if (!thread) throw new ThreadNotFound(threadId);
  requireRevision(thread, condition);
  requireAwaitingReview(thread);
  try {
    return await deps.decide(
      (tx) => decide(thread, { ...tx, graph: deps.graphOn(tx.checkpointer) }),
      {
        transaction: options?.transaction ?? false,
        ...(read?.latest ? { latest: read.latest } : {}),
      },
    );
  } catch (error) {
    if (!(error instanceof ThreadMovedOn)) throw error;
    const current = await getThread(deps, threadId);
    requireRevision(current, condition);
    if (current.revision !== thread.revision)
      throw new RevisionMismatch(current, condition?.ifMatch ? 412 : 409);
    requireAwaitingReview(current);
    throw error;
  }
}
