/**
 * @google/adk@1.2.0 · `Gemini.generateContentAsync` under a deadline and bounded retries
 * (llm/resilient-call.ts), a call that fails for good yielded as an error response: ADK has no
 * timeout or retry, and retrying the whole turn would run its tools twice. Register entry
 * `adk-gemini-call-policy`; guarded by test/model-faults.test.ts, test/model-retry.test.ts.
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
