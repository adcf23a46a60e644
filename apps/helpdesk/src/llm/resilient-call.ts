import { setTimeout as delay } from 'node:timers/promises';
import type { LlmResponse } from '@google/adk';
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
 * stops while an answer is out (ADK runs tools and agents while this generator waits on `yield`);
 * for a stream it bounds each wait for the next chunk, so a long steady reply is not cut.
 */
export async function* withDeadlineAndRetry(
  attempt: ModelAttempt,
  policy: CallPolicy,
  options: { stream: boolean; abortSignal?: AbortSignal },
): AsyncGenerator<LlmResponse, void> {
  for (let attempts = 1; ; attempts += 1) {
    // A timeout is retried and answered 504; the caller's own abort is not.
    const deadline = new AbortController();
    let expired = false;
    let timer: NodeJS.Timeout | undefined;
    const stop = () => clearTimeout(timer);
    const restart = () => {
      stop();
      timer = setTimeout(() => {
        expired = true;
        deadline.abort(new Error(`model call timed out after ${policy.timeoutMs} ms`));
      }, policy.timeoutMs);
    };
    const { abortSignal } = options;
    const signal = abortSignal ? AbortSignal.any([deadline.signal, abortSignal]) : deadline.signal;
    let answered = false;
    restart();
    try {
      const responses = attempt(signal, restart);
      for (let next = await responses.next(); !next.done; next = await responses.next()) {
        answered = true;
        stop();
        yield next.value;
        if (options.stream) restart();
      }
      return;
    } catch (error) {
      const failure = classifyModelError(error, expired);
      const retryable = !answered && !abortSignal?.aborted && isTransient(failure);
      if (!retryable || attempts > policy.maxRetries) {
        yield modelErrorResponse(failure, attempts);
        return;
      }
      await delay(backoffMs(policy.backoff, attempts));
    } finally {
      stop();
    }
  }
}
