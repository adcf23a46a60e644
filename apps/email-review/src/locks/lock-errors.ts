import { HttpError } from '@repo/http-kit';

/** Someone else is changing the thread right now; the caller may look again and decide. */
export class ThreadBusy extends HttpError {
  constructor(threadId: string, detail = 'The thread is being changed by another request.') {
    super(409, 'thread_busy', detail, { thread_id: threadId });
  }
}

/**
 * The change's lease expired under it (its process stalled past the ttl) and another change took
 * the thread: this one's view, history events and approval were refused, and the thread is as the
 * other change leaves it (what the stalled change wrote to the checkpoint before may show up when
 * the view is next re-derived from it, at a revision of its own).
 */
export class ThreadLeaseLost extends ThreadBusy {
  constructor(threadId: string) {
    super(
      threadId,
      'Another change took the thread over while this one ran; look at the thread again before repeating it.',
    );
  }
}
