/**
 * @google/adk@1.2.0 · `Gemini.generateContentAsync`: each model call runs with a deadline and
 * bounded retries (src/llm/resilient-call.ts), and a call that fails for good is yielded as an
 * error response carrying a ModelErrorCode instead of thrown.
 * Why: ADK 1.2.0 has no timeout and no retry, and names a thrown failure UNKNOWN_ERROR unless its
 * message is JSON. Retrying the whole turn instead would run its tools twice (two tickets).
 * Guarded by: test/model-faults.test.ts, test/model-retry.test.ts.
 */
import type { GeminiParams, LlmRequest, LlmResponse } from '@google/adk';
import { withDeadlineAndRetry, type CallPolicy } from '../llm/resilient-call.js';
import { GeminiWithBaseUrl } from './adk-gemini-base-url.js';

export class GeminiWithCallPolicy extends GeminiWithBaseUrl {
  constructor(
    params: GeminiParams & { baseUrl?: string | undefined },
    private readonly policy: CallPolicy,
  ) {
    super(params);
  }

  override generateContentAsync(
    llmRequest: LlmRequest,
    stream = false,
    abortSignal?: AbortSignal,
  ): AsyncGenerator<LlmResponse, void> {
    return withDeadlineAndRetry(
      (signal) => super.generateContentAsync(llmRequest, stream, signal),
      this.policy,
      { stream, abortSignal },
    );
  }
}
