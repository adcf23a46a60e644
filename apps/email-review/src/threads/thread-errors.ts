import { HttpError } from '@repo/http-kit';
import type { Thread, ThreadError } from './thread.js';

export class ThreadNotFound extends HttpError {
  constructor(threadId: string) {
    super(404, 'thread_not_found', 'No thread has this id.', { thread_id: threadId });
  }
}

/** Edit, approve and reject need a thread that is paused for review. */
export class ThreadNotAwaitingReview extends HttpError {
  constructor(thread: Thread) {
    super(
      409,
      'thread_not_awaiting_review',
      `The thread is ${thread.status}, not awaiting review.`,
      {
        thread_id: thread.thread_id,
        thread_status: thread.status,
      },
    );
  }
}

/** Someone else is changing the thread right now; the caller may look again and decide. */
export class ThreadBusy extends HttpError {
  constructor(threadId: string) {
    super(409, 'thread_busy', 'The thread is being changed by another request.', {
      thread_id: threadId,
    });
  }
}

/**
 * No lock connection came free in time: the service is saturated (or the database unreachable).
 * Answered at once rather than queueing the change indefinitely.
 */
export class ThreadLocksUnavailable extends HttpError {
  constructor(threadId: string, options?: { cause?: unknown }) {
    super(
      503,
      'locks_unavailable',
      'Too many threads are being changed right now; try again shortly.',
      { thread_id: threadId },
      { 'Retry-After': '1' },
    );
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}

export class ThreadNotRetryable extends HttpError {
  constructor(thread: Thread) {
    super(
      409,
      'thread_not_retryable',
      `The thread is ${thread.status}; only failed threads can be retried.`,
      {
        thread_id: thread.thread_id,
        thread_status: thread.status,
      },
    );
  }
}

export class IdempotencyKeyReused extends HttpError {
  constructor(threadId: string) {
    super(
      422,
      'idempotency_key_reused',
      'This Idempotency-Key was already used with a different email.',
      {
        thread_id: threadId,
      },
    );
  }
}

/** The model (after the SDK's retries) failed; the thread is kept as `failed` and can be retried. */
export class WorkflowStepFailed extends HttpError {
  constructor(thread: Thread, error: ThreadError, options?: { cause?: unknown }) {
    super(
      502,
      error.code,
      `${error.message} The thread is kept as failed; POST /threads/{id}/retry resumes it.`,
      {
        thread_id: thread.thread_id,
      },
    );
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}
