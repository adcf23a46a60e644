import { HttpError } from '@repo/http-kit';

/** Someone else is changing the thread right now; the caller may look again and decide. */
export class ThreadBusy extends HttpError {
  constructor(threadId: string) {
    super(409, 'thread_busy', 'The thread is being changed by another request.', {
      thread_id: threadId,
    });
  }
}
