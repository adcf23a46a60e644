import { BaseLlm, type BaseLlmConnection, type LlmRequest, type LlmResponse } from '@google/adk';
import { modelCallSpan, type ModelCall, type ModelCallOutcome } from '@repo/http-kit';

/** What a call that ended with an error response (resilient-call.ts) counts as. */
function outcomeOf(errorCode: string | undefined): ModelCallOutcome {
  if (!errorCode) return 'ok';
  return errorCode === 'model_timeout' ? 'timeout' : 'error';
}

/** `gen_ai.system` of each provider, as the GenAI semantic conventions name them. */
const GEN_AI_SYSTEM: Record<string, string> = { gemini: 'gcp.gemini', openai: 'openai' };

interface ModelObservers {
  /** Told of each call (metrics). */
  report?: ((call: ModelCall) => void) | undefined;
  /** A GenAI span for each call, under ADK's `call_llm` span (tracing). */
  tracing?: { captureContent: boolean } | undefined;
}

/**
 * The agents' model, reporting each call (its retries inside it): outcome, usage, and the time
 * until its last response (not ADK's tool runs while the generator waits); and a GenAI span of it.
 */
export class ObservedModel extends BaseLlm {
  constructor(
    private readonly inner: BaseLlm,
    private readonly provider: string,
    private readonly observers: ModelObservers,
  ) {
    super({ model: inner.model });
  }

  override async *generateContentAsync(
    llmRequest: LlmRequest,
    stream = false,
    abortSignal?: AbortSignal,
  ): AsyncGenerator<LlmResponse, void> {
    const { tracing } = this.observers;
    const span =
      tracing &&
      modelCallSpan({
        system: GEN_AI_SYSTEM[this.provider] ?? this.provider,
        model: this.model,
        captureContent: tracing.captureContent,
        prompt: llmRequest.contents,
      });
    const started = performance.now();
    let usage: LlmResponse['usageMetadata'];
    let last: LlmResponse | undefined;
    let finished = false;
    // Called once the answer is complete — before it is handed on, since ADK runs the tools and the
    // next agent (a transfer) before it asks this generator for more.
    const finish = (outcome: ModelCallOutcome) => {
      if (finished) return;
      finished = true;
      const call = {
        provider: this.provider,
        model: this.model,
        outcome,
        seconds: (performance.now() - started) / 1000,
        inputTokens: usage?.promptTokenCount,
        outputTokens: usage?.candidatesTokenCount,
      };
      this.observers.report?.(call);
      span?.end({ ...call, reply: last?.content, error: last?.errorCode });
    };
    try {
      const responses = this.inner.generateContentAsync(llmRequest, stream, abortSignal);
      for await (const response of responses) {
        last = response;
        usage = response.usageMetadata ?? usage;
        if (!response.partial) finish(outcomeOf(response.errorCode));
        yield response;
      }
    } catch (error) {
      finish('error');
      throw error;
    } finally {
      // The end of the responses, or of a generator its consumer abandoned.
      finish(outcomeOf(last?.errorCode));
    }
  }

  override connect(llmRequest: LlmRequest): Promise<BaseLlmConnection> {
    return this.inner.connect(llmRequest);
  }
}
