import { HttpError } from '@repo/http-kit';
import type { Thread, ThreadError } from './thread.js';

/** A thread in the wrong state for the request: the problem names it and its status. */
const inState = (thread: Thread) => ({
  extra: { thread_id: thread.thread_id, thread_status: thread.status },
});

export class ThreadNotFound extends HttpError {
  constructor(threadId: string) {
    super(404, 'thread_not_found', 'No thread has this id.', { extra: { thread_id: threadId } });
  }
}

/** Edit, approve and reject need a thread that is paused for review. */
export class ThreadNotAwaitingReview extends HttpError {
  constructor(thread: Thread) {
    const detail = `The thread is ${thread.status}, not awaiting review.`;
    super(409, 'thread_not_awaiting_review', detail, inState(thread));
  }
}

/** Retry takes a failed thread (a drafting one has its model job, which the queue reruns). */
export class ThreadNotRetryable extends HttpError {
  constructor(thread: Thread) {
    const detail = `The thread is ${thread.status}; only failed threads can be retried.`;
    super(409, 'thread_not_retryable', detail, inState(thread));
  }
}

/** Redelivering a `no_recipient` delivery needs an address: the request named no `to`. */
export class RecipientRequired extends HttpError {
  constructor(thread: Thread) {
    const detail = 'The thread has no address to reply to; redeliver with { "to": "…" }.';
    super(422, 'recipient_required', detail, { extra: { thread_id: thread.thread_id } });
  }
}

/** Redeliver takes a sent thread whose delivery failed or had no recipient. */
export class DeliveryNotFailed extends HttpError {
  constructor(thread: Thread) {
    const status = thread.delivery?.status ?? 'none';
    const detail = `The thread's delivery is ${status}; only a failed or recipient-less delivery can be queued again.`;
    const extra = { thread_id: thread.thread_id, delivery_status: status };
    super(409, 'delivery_not_failed', detail, { extra });
  }
}

export class IdempotencyKeyReused extends HttpError {
  constructor(threadId: string) {
    const detail = 'This Idempotency-Key was already used with a different email.';
    super(422, 'idempotency_key_reused', detail, { extra: { thread_id: threadId } });
  }
}

/** The model (after its retries) failed; the thread is kept as `failed` and can be retried. */
export class WorkflowStepFailed extends HttpError {
  constructor(thread: Thread, error: ThreadError, options?: { cause?: unknown }) {
    const detail = `${error.message} The thread is kept as failed; POST /threads/{id}/retry resumes it.`;
    super(502, error.code, detail, { extra: { thread_id: thread.thread_id } });
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}

/**
 * A step ran but its result could not be stored (the database refused it): the thread is kept
 * `failed` (retryable) rather than left `drafting`, and the client learns which thread it was.
 */
export class StepNotStored extends HttpError {
  constructor(threadId: string, cause: unknown) {
    const detail =
      'The step ran but its result could not be stored. The thread is kept as failed; POST /threads/{id}/retry resumes it.';
    super(500, 'internal_error', detail, { extra: { thread_id: threadId } });
    this.cause = cause;
  }
}

/**
 * The reviewer acted on a revision that is no longer current: nothing changed. 412 when the
 * revision came in If-Match, 409 otherwise; both carry the current revision and its ETag.
 */
export class RevisionMismatch extends HttpError {
  constructor(thread: Thread, status: 409 | 412) {
    const { thread_id, revision } = thread;
    const detail = `The draft is now at revision ${revision}; look at it again before acting on it.`;
    const headers = { ETag: `"${revision}"` };
    super(status, 'revision_mismatch', detail, { extra: { thread_id, revision }, headers });
  }
}

/**
 * A decision's compare-and-set found the thread changed since it was read: nothing was written;
 * the operation reads it again to answer with the right error.
 */
export class ThreadMovedOn extends Error {
  constructor(readonly threadId: string) {
    super(`thread ${threadId} changed while a decision on it was being written`);
  }
}
