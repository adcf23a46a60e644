import { OpenAIError } from 'openai';

/** The model answered, but not with something the workflow can use. */
export class ModelOutputInvalid extends Error {
  constructor(detail: string, options?: { cause?: unknown }) {
    super(`The model's answer was unusable: ${detail}.`, options);
    this.name = 'ModelOutputInvalid';
  }
}

/**
 * Whether an error came from the model provider (after the SDK's own retries), as opposed to a bug
 * or the database. Such failures answer 502 and leave the thread `failed` and retryable.
 */
export function isModelFailure(error: unknown): error is Error {
  return error instanceof OpenAIError || error instanceof ModelOutputInvalid;
}

/**
 * Runs one SDK call. Anything it throws that is not the SDK's own error (a body that is not JSON,
 * structured output that fails the zod schema) is the model's fault too, and must not surface as
 * a 400 or 500 of ours.
 */
export async function callModel<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isModelFailure(error)) throw error;
    throw new ModelOutputInvalid(
      `unreadable (${error instanceof Error ? error.name : typeof error})`,
      { cause: error },
    );
  }
}
