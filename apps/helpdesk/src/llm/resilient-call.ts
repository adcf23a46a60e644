import { setTimeout as delay } from 'node:timers/promises';
import type { LlmResponse } from '@google/adk';
import { ModelCallDeadline } from './model-deadline.js';
import { classifyModelError, isTransient, modelErrorResponse } from './model-errors.js';
import { backoffMs, type Backoff } from '@repo/http-kit';

export interface CallPolicy {
  /** Attempts after the first one. */
  maxRetries: number;
  /** The waits between attempts. */
  backoff: Backoff;
  /** Per attempt, until the model starts answering; when streaming, each wait for the next chunk. */
  timeoutMs: number;
}

/**
 * One attempt at the model call, aborted through `signal`. `progress`: a chunk read but not yielded
 * (OpenAI's tool-call arguments, gathered into one response) restarts the deadline too.
 */
type ModelAttempt = (
  signal: AbortSignal,
  progress: () => void,
) => AsyncGenerator<LlmResponse, void>;

/**
 * Runs a model call with a deadline per attempt and retries of transient failures before the model
 * answered; a call that fails for good ends with an error response, not an exception. The deadline
 * stops once an answer is out (ADK runs tools while this generator is suspended on `yield`); for a
 * stream it bounds each wait for the next chunk, so a long steady reply is not cut.
 */
export async function* withDeadlineAndRetry(
  attempt: ModelAttempt,
  policy: CallPolicy,
  options: { stream: boolean; abortSignal?: AbortSignal },
): AsyncGenerator<LlmResponse, void> {
  for (let attempts = 1; ; attempts += 1) {
    const deadline = new ModelCallDeadline(policy.timeoutMs, options.abortSignal);
    let answered = false;
    try {
      const responses = attempt(deadline.signal, () => deadline.restart());
      for (let next = await responses.next(); !next.done; next = await responses.next()) {
        answered = true;
        if (!options.stream) {
          deadline.clear();
          yield next.value;
          continue;
        }
        // Streaming: the deadline bounds each wait for the next chunk, and stops while ADK holds
        // one (it may run a tool or a whole specialist before it asks for the next).
        deadline.pause();
        yield next.value;
        deadline.restart();
      }
      return;
    } catch (error) {
      const failure = classifyModelError(error, deadline.expired);
      const retryable = !answered && !options.abortSignal?.aborted && isTransient(failure);
      if (!retryable || attempts > policy.maxRetries) {
        yield modelErrorResponse(failure, attempts);
        return;
      }
      await delay(backoffMs(policy.backoff, attempts));
    } finally {
      deadline.clear();
    }
  }
}
