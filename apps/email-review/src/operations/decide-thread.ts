import type { BaseCheckpointSaver } from '@langchain/langgraph';
import { currentActor } from '@repo/http-kit';
import { createHash } from 'node:crypto';
import { deliveryView, replyMessage } from '../delivery/delivery.js';
import type { Transaction } from '../persistence/transaction.js';
import type { Thread } from '../threads/thread.js';
import type { ThreadChange } from '../threads/thread-store.js';
import {
  RevisionMismatch,
  ThreadMovedOn,
  ThreadNotAwaitingReview,
  ThreadNotFound,
} from '../threads/thread-errors.js';
import { compileEmailGraph, type buildEmailGraph, type EmailGraph } from '../workflow/graph.js';
import { getThread } from './get-thread.js';
import { learnFromApproval } from '../quality/learn-from-decision.js';
import { now, stateConfig, type OperationDeps } from './thread-service.js';

/** The revision a reviewer saw, as the request named it; none: the change applies to the current one. */
export interface RevisionCondition {
  /** From `If-Match`: the change applies only if the current revision is one of these (else 412). */
  ifMatch?: readonly number[] | undefined;
  /** From the body's `revision`: the change applies only to this revision (else 409). */
  revision?: number | undefined;
}

/** Decisions act only on the revision the reviewer saw, when they say which; and on a paused thread. */
function requireRevision(thread: Thread, condition: RevisionCondition = {}): void {
  if (condition.ifMatch && !condition.ifMatch.includes(thread.revision))
    throw new RevisionMismatch(thread, 412);
  if (condition.revision !== undefined && condition.revision !== thread.revision)
    throw new RevisionMismatch(thread, 409);
}

function requireAwaitingReview(thread: Thread): void {
  if (thread.status !== 'awaiting_review') throw new ThreadNotAwaitingReview(thread);
}

/** What a decision writes with: its transaction, and the graph over the transaction's saver. */
export interface Decision extends Transaction {
  graph: EmailGraph;
}

/**
 * OperationDeps' `graphOn`: the graph over a transaction's saver, compiled once per saver with the
 * telemetry's callbacks (memory mode's transactions share one saver).
 */
export function graphOnEachSaver(service: {
  builder: ReturnType<typeof buildEmailGraph>;
  withTelemetry: (graph: EmailGraph) => EmailGraph;
}): (saver: BaseCheckpointSaver) => EmailGraph {
  const graphs = new WeakMap<BaseCheckpointSaver, EmailGraph>();
  return (saver) => {
    let compiled = graphs.get(saver);
    if (!compiled)
      graphs.set(
        saver,
        (compiled = service.withTelemetry(compileEmailGraph(service.builder, saver))),
      );
    return compiled;
  };
}

/**
 * A reviewer's decision on a paused thread (edit, approve, reject, the start of a redraft): one
 * transaction records it in the checkpoint and writes view and history by compare-and-set (still
 * `awaiting_review` at the revision read). When the thread moved on meanwhile, it rolls back and
 * answers from the thread read again (412/409 `revision_mismatch`, 409 `thread_not_awaiting_review`).
 */
export async function decideThread(
  deps: OperationDeps,
  threadId: string,
  condition: RevisionCondition | undefined,
  decide: (thread: Thread, decision: Decision) => Promise<Thread>,
): Promise<Thread> {
  const thread = await deps.threads.get(threadId);
  if (!thread) throw new ThreadNotFound(threadId);
  requireRevision(thread, condition);
  requireAwaitingReview(thread);
  try {
    return await deps.transaction((tx) =>
      decide(thread, { ...tx, graph: deps.graphOn(tx.checkpointer) }),
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

/** A decision's view and history, by compare-and-set from `awaiting_review` at `revision`. */
export async function saveDecision(
  deps: OperationDeps,
  decision: Decision,
  change: Omit<ThreadChange, 'from'>,
): Promise<void> {
  const saved = await deps.threads.saveDecision(decision, { ...change, from: 'awaiting_review' });
  if (!saved) throw new ThreadMovedOn(change.view.thread_id);
}

/**
 * Approves the draft the reviewer was shown, in one decision: the thread `sent`, its reply queued
 * (a worker delivers it), `approved` in the history, and `sent` recorded as the `send` step's output
 * (the step never runs in the service), so what is sent is the checkpoint's draft.
 */
export function approveThread(
  deps: OperationDeps,
  threadId: string,
  /** `to` sets or overrides the recipient (the thread's `from` by default). */
  approval: { to?: string | undefined } = {},
  condition?: RevisionCondition,
): Promise<Thread> {
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
    const message = replyMessage(thread, draft, approval.to ?? thread.email.from, deps.outbound);
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
