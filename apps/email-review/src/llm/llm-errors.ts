import { HttpError } from '@repo/http-kit';
import { OpenAIError } from 'openai';

/** The model answered, but not with something the workflow can use. */
export class ModelOutputInvalid extends Error {
  constructor(detail: string, options?: { cause?: unknown }) {
    super(`The model's answer was unusable: ${detail}.`, options);
    this.name = 'ModelOutputInvalid';
  }
}

/**
 * The provider kept failing in ways worth retrying until the retry budget ran out, or asked for a
 * longer wait than it leaves; the client is told when to come back (`retryAfterSeconds`).
 */
export class ModelUnavailable extends Error {
  constructor(
    readonly retryAfterSeconds: number,
    options?: { cause?: unknown },
  ) {
    super('The model provider is unavailable; its retry budget is spent.', options);
    this.name = 'ModelUnavailable';
  }
}

/** 503 for a step whose model stayed unavailable: the thread is kept `failed`, retryable later. */
export class ModelUnavailableAnswer extends HttpError {
  constructor(threadId: string, error: ModelUnavailable) {
    super(
      503,
      'llm_unavailable',
      'The model provider is unavailable right now. The thread is kept as failed; POST /threads/{id}/retry resumes it.',
      {
        extra: { thread_id: threadId },
        headers: { 'Retry-After': String(error.retryAfterSeconds) },
      },
    );
    this.cause = error;
  }
}

/** Whether an error came from the model provider (not a bug, not the database): retryable. */
export function isModelFailure(error: unknown): error is Error {
  return (
    error instanceof OpenAIError ||
    error instanceof ModelOutputInvalid ||
    error instanceof ModelUnavailable
  );
}
