import { setTimeout as delay } from 'node:timers/promises';
import { Gemini, type LlmRequest, type LlmResponse } from '@google/adk';
import type { HttpOptions } from '@google/genai';
import type { GeminiSettings } from '@repo/llm-config';
import { ModelCallDeadline } from './model-deadline.js';
import { classifyModelError, isTransient, toAdkModelError } from './model-errors.js';
import {
  backoffDelayMs,
  DEFAULT_RETRY_BASE_DELAY_MS,
  DEFAULT_RETRY_MAX_DELAY_MS,
  type RetryPolicy,
} from './retry-backoff.js';

export type ModelSettings = Pick<
  GeminiSettings,
  'apiKey' | 'model' | 'baseUrl' | 'timeoutMs' | 'maxRetries'
> & {
  /** Delay before the first retry (default 250 ms); tests shorten it. */
  retryBaseDelayMs?: number;
};

/**
 * ADK's Gemini with what ADK 1.2.0 leaves out: a base URL (the emulator or a proxy), a per-call
 * timeout, and retries of transient failures. ADK reports a failed model call as an error event
 * and never retries it, and retrying a whole turn would run its tools twice (two tickets), so
 * the retry sits here, around the one HTTP call.
 */
export class HelpdeskGemini extends Gemini {
  private readonly baseUrl: string | undefined;
  private readonly timeoutMs: number;
  private readonly retry: RetryPolicy;

  constructor(settings: ModelSettings) {
    super({ model: settings.model, apiKey: settings.apiKey });
    this.baseUrl = settings.baseUrl;
    this.timeoutMs = settings.timeoutMs;
    this.retry = {
      maxRetries: settings.maxRetries,
      baseDelayMs: settings.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS,
      maxDelayMs: DEFAULT_RETRY_MAX_DELAY_MS,
    };
  }

  // ADK builds its GoogleGenAI client once, lazily, from these options.
  protected override getHttpOptions(): HttpOptions {
    const options = super.getHttpOptions();
    return this.baseUrl ? { ...options, baseUrl: this.baseUrl } : options;
  }

  override async *generateContentAsync(
    llmRequest: LlmRequest,
    stream = false,
    abortSignal?: AbortSignal,
  ): AsyncGenerator<LlmResponse, void> {
    for (let attempt = 1; ; attempt += 1) {
      const deadline = new ModelCallDeadline(this.timeoutMs, abortSignal);
      let answered = false;
      try {
        const responses = super.generateContentAsync(llmRequest, stream, deadline.signal);
        for (let next = await responses.next(); !next.done; next = await responses.next()) {
          // ADK runs the tools and the next agent while this generator is suspended on `yield`:
          // that time is not the model's.
          if (!stream) deadline.clear();
          answered = true;
          yield next.value;
        }
        return;
      } catch (error) {
        const failure = classifyModelError(error, deadline.expired);
        const retryable = !answered && !abortSignal?.aborted && isTransient(failure);
        if (!retryable || attempt > this.retry.maxRetries) throw toAdkModelError(failure, attempt);
        await delay(backoffDelayMs(attempt, this.retry));
      } finally {
        deadline.clear();
      }
    }
  }
}
