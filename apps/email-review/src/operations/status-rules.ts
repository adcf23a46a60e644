import type { Thread } from '../threads/thread.js';
import {
  RevisionMismatch,
  ThreadNotAwaitingReview,
  ThreadNotRetryable,
} from '../threads/thread-errors.js';

/** The revision a reviewer saw, as the request named it; none: the change applies to the current one. */
export interface RevisionCondition {
  /** From `If-Match`: the change applies only if the current revision is one of these (else 412). */
  ifMatch?: readonly number[] | undefined;
  /** From the body's `revision`: the change applies only to this revision (else 409). */
  revision?: number | undefined;
}

/** Edit, approve and reject act only on the revision the reviewer saw, when they say which. */
export function requireRevision(thread: Thread, condition: RevisionCondition = {}): void {
  if (condition.ifMatch && !condition.ifMatch.includes(thread.revision))
    throw new RevisionMismatch(thread, 412);
  if (condition.revision !== undefined && condition.revision !== thread.revision)
    throw new RevisionMismatch(thread, 409);
}

/** Edit, approve and reject need a thread paused for review. */
export function requireAwaitingReview(thread: Thread): void {
  if (thread.status !== 'awaiting_review') throw new ThreadNotAwaitingReview(thread);
}

/** Retry takes a `failed` thread (a `drafting` one has its model job, which the queue reruns). */
export function requireRetryable(thread: Thread): void {
  if (thread.status !== 'failed') throw new ThreadNotRetryable(thread);
}
