import { HttpError } from '@repo/http-kit';

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
