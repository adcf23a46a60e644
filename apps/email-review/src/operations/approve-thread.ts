import { currentActor } from '@repo/http-kit';
import { createHash } from 'node:crypto';
import { deliveryView, replyMessage } from '../delivery/delivery.js';
import type { Thread } from '../threads/thread.js';
import { decideThread, type RevisionCondition } from './decide-thread.js';
import { learnFromApproval } from './learn-from-decision.js';
import { now, stateConfig, type OperationDeps } from './operation-deps.js';

export interface Approval {
  /** Sets or overrides the recipient (the thread's `from` by default). */
  to?: string | undefined;
}

/**
 * Approves the draft the reviewer was shown, in one decision: the thread `sent`, its reply queued,
 * `approved` in the history, and `sent` recorded as the `send` step's output (the step never runs
 * in the service), so what is sent is the checkpoint's draft. A worker delivers it later.
 */
export function approveThread(
  deps: OperationDeps,
  threadId: string,
  approval: Approval = {},
  condition?: RevisionCondition,
): Promise<Thread> {
  const recipient = (thread: Thread) => approval.to ?? thread.email.from;
  return decideThread(deps, threadId, condition, async (thread, decision) => {
    const draft = thread.draft!;
    const at = now(deps);
    const sent: Thread = { ...thread, status: 'sent', sent_at: at, updated_at: at };
    const approved = {
      type: 'approved' as const,
      at,
      actor: currentActor(),
      revision: thread.revision,
      text_sha256: createHash('sha256').update(draft).digest('hex'),
    };
    const message = replyMessage(thread, draft, recipient(thread), deps.outbound);
    await decision.graph.updateState(stateConfig(threadId), { sent: { at, text: draft } }, 'send');
    const delivery = await deps.deliveries.commitApproval(decision, {
      view: sent,
      message,
      events: [approved],
    });
    await learnFromApproval(deps, decision, thread, approved);
    return { ...sent, delivery: deliveryView(delivery) };
  });
}
