import { createHash } from 'node:crypto';
import { deliveryView } from '../delivery/delivery.js';
import { replyMessage } from '../email/reply.js';
import type { EmailStateValues } from '../workflow/state.js';
import type { Thread } from '../threads/thread.js';
import { RevisionMismatch, ThreadNotAwaitingReview } from '../threads/thread-errors.js';
import { projectThread } from '../threads/thread-projection.js';
import { stateConfig } from './graph-config.js';
import { reviewer } from './history-events.js';
import { withLockedThread } from './locked-thread.js';
import { now, type OperationDeps } from './operation-deps.js';
import { recordSent } from './record-sent.js';
import { requireAwaitingReview, requireRevision, type RevisionCondition } from './status-rules.js';

export interface Approval {
  /** Sets or overrides the recipient (the thread's `from` by default). */
  to?: string;
}

/**
 * Approves the draft — only the revision the reviewer saw, when they name it: one transaction marks
 * the thread `sent`, queues its reply and records `approved` (all or nothing), then the checkpoint
 * records `sent`. Delivery happens later, in a worker.
 */
export function approveThread(
  deps: OperationDeps,
  threadId: string,
  approval: Approval = {},
  condition?: RevisionCondition,
): Promise<Thread> {
  return withLockedThread(deps, threadId, async (thread) => {
    requireRevision(thread, condition);
    requireAwaitingReview(thread);
    const to = approval.to ?? thread.email.from;
    const draft = await reviewedDraft(deps, thread, condition);
    const at = now(deps);
    const sent: Thread = { ...thread, status: 'sent', draft, sent_at: at, updated_at: at };
    const delivery = await deps.deliveries.commitApproval(
      sent,
      replyMessage(thread, draft, to, deps.outbound),
      [
        {
          type: 'approved',
          at,
          actor: reviewer(),
          revision: thread.revision,
          text_sha256: createHash('sha256').update(draft).digest('hex'),
        },
      ],
    );
    // reviewedDraft found the checkpoint paused before `send` a moment ago, under this lease.
    await recordSent(deps, delivery, at, true);
    return { ...sent, delivery: deliveryView(delivery) };
  });
}

/**
 * The draft in the checkpoint, which the reviewer was shown (the write order keeps the index's view
 * of an `awaiting_review` thread derived from it, at the same revision and text). Anything else
 * means the index missed a change — a crash between a change's two writes, or a holder that lost
 * its lease writing the checkpoint after the change that took the thread over — and the approval is
 * refused with the view re-derived from the checkpoint (`recovered`). A text the view did not show
 * at the view's own revision gets a revision of its own first, so that an approval naming the
 * revision the reviewer saw (If-Match, `revision`) can never send it: what is sent is always a text
 * the reviewer was shown.
 */
async function reviewedDraft(
  deps: OperationDeps,
  thread: Thread,
  condition: RevisionCondition | undefined,
): Promise<string> {
  const config = stateConfig(thread.thread_id);
  const snapshot = await deps.graph.getState(config);
  const values = { ...(snapshot.values as Partial<EmailStateValues>) };
  const paused = snapshot.next.includes('send') && Boolean(values.reply);
  if (paused && values.revision === thread.revision && values.reply === thread.draft)
    return values.reply!;
  if (paused && values.revision === thread.revision) {
    await deps.graph.updateState(config, { revision: 1 }, 'draft');
    values.revision = thread.revision + 1;
  }
  const settled = projectThread(thread, values, now(deps));
  await deps.threads.save(settled, [
    { type: 'recovered', at: settled.updated_at, actor: 'system', revision: settled.revision },
  ]);
  // Paused for review at another revision: the draft changed under the reviewer.
  if (paused) throw new RevisionMismatch(settled, condition?.ifMatch ? 412 : 409);
  throw new ThreadNotAwaitingReview(settled);
}
