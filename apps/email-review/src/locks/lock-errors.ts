import { HttpError } from '@repo/http-kit';

/** Someone else is changing the thread right now; the caller may look again and decide. */
export class ThreadBusy extends HttpError {
  constructor(threadId: string, detail = 'The thread is being changed by another request.') {
    super(409, 'thread_busy', detail, { thread_id: threadId });
  }
}

/**
 * The change's lease expired under it (its process stalled past the ttl) and another change took
 * the thread: this one's write was refused, and the thread is as the other change leaves it.
 */
export class ThreadLeaseLost extends ThreadBusy {
  constructor(threadId: string) {
    super(threadId, 'Another change took the thread over while this one ran; it was not recorded.');
  }
}
