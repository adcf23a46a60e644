import { deliveryView } from '../delivery/delivery.js';
import { replyMessage } from '../email/reply.js';
import type { EmailStateValues } from '../workflow/state.js';
import type { Thread } from '../threads/thread.js';
import { RecipientRequired, ThreadNotAwaitingReview } from '../threads/thread-errors.js';
import { projectThread } from '../threads/thread-projection.js';
import { stateConfig } from './graph-config.js';
import { withLockedThread } from './locked-thread.js';
import { now, type OperationDeps } from './operation-deps.js';
import { recordSent } from './record-sent.js';
import { requireAwaitingReview } from './status-rules.js';

export interface Approval {
  /** Sets or overrides the recipient (the thread's `from` by default). */
  to?: string;
}

/**
 * Approves the draft: one transaction marks the thread `sent` and queues its reply (both or
 * neither), then the checkpoint records `sent`. Delivery happens later, in a worker.
 */
export function approveThread(
  deps: OperationDeps,
  threadId: string,
  approval: Approval = {},
): Promise<Thread> {
  return withLockedThread(deps, threadId, async (thread) => {
    requireAwaitingReview(thread);
    const to = approval.to ?? thread.email.from;
    if (!to && deps.outbound.recipientRequired) throw new RecipientRequired(thread);
    const draft = await reviewedDraft(deps, thread);
    const at = now(deps);
    const sent: Thread = { ...thread, status: 'sent', draft, sent_at: at, updated_at: at };
    const delivery = await deps.deliveries.commitApproval(
      sent,
      replyMessage(thread, draft, to, deps.outbound),
    );
    await recordSent(deps, delivery, at);
    return { ...sent, delivery: deliveryView(delivery) };
  });
}

/**
 * The draft in the checkpoint, which the reviewer was shown (the write order keeps the index's view
 * of an `awaiting_review` thread derived from it). A checkpoint that is not paused before `send`
 * means the index missed a change (a crash between a reject's two writes): the view is re-derived and
 * the approval refused.
 */
async function reviewedDraft(deps: OperationDeps, thread: Thread): Promise<string> {
  const snapshot = await deps.graph.getState(stateConfig(thread.thread_id));
  const values = snapshot.values as Partial<EmailStateValues>;
  if (snapshot.next.includes('send') && values.reply) return values.reply;
  const settled = projectThread(thread, values, now(deps));
  await deps.threads.save(settled);
  throw new ThreadNotAwaitingReview(settled);
}
