import type { Thread } from '../threads/thread.js';
import { ThreadNotAwaitingReview, ThreadNotRetryable } from '../threads/thread-errors.js';

/** Edit, approve and reject need a thread paused for review. */
export function requireAwaitingReview(thread: Thread): void {
  if (thread.status !== 'awaiting_review') throw new ThreadNotAwaitingReview(thread);
}

/**
 * Retry takes a `failed` thread, or a `drafting` one whose lock is free: its run, or a change's
 * second write, died with its process.
 */
export function requireRetryable(thread: Thread): void {
  if (thread.status !== 'failed' && thread.status !== 'drafting')
    throw new ThreadNotRetryable(thread);
}
