import { HttpError } from '@repo/http-kit';

/**
 * A step ran but its result could not be stored (the database refused it): the thread is kept
 * `failed` (retryable) rather than left `drafting`, and the client learns which thread it was.
 */
export class StepNotStored extends HttpError {
  constructor(threadId: string, cause: unknown) {
    super(
      500,
      'internal_error',
      'The step ran but its result could not be stored. The thread is kept as failed; POST /threads/{id}/retry resumes it.',
      { extra: { thread_id: threadId } },
    );
    this.cause = cause;
  }
}
