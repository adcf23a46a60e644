import { BaseLlm, type BaseLlmConnection, type LlmRequest, type LlmResponse } from '@google/adk';
import {
  modelCallSpan,
  type ModelCall,
  type ModelCallOutcome,
  type ModelCallSpan,
} from '@repo/http-kit';

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
 * The agents' model, reporting each call as ADK makes it (the deadline's retries inside it):
 * its outcome, the time until its last response arrived (not the time ADK then spends running
 * tools while the call's generator is suspended), and the usage the provider reported; and
 * tracing it as a GenAI span.
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
    const span = this.startSpan(llmRequest);
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
      for await (const response of this.inner.generateContentAsync(
        llmRequest,
        stream,
        abortSignal,
      )) {
        last = response;
        usage = response.usageMetadata ?? usage;
        if (!response.partial) finish(outcomeOf(response.errorCode));
        yield response;
      }
      finish(outcomeOf(last?.errorCode));
    } catch (error) {
      finish('error');
      throw error;
    } finally {
      // A generator its consumer abandoned ends here.
      finish(outcomeOf(last?.errorCode));
    }
  }

  private startSpan(llmRequest: LlmRequest): ModelCallSpan | undefined {
    const { tracing } = this.observers;
    return (
      tracing &&
      modelCallSpan({
        system: GEN_AI_SYSTEM[this.provider] ?? this.provider,
        model: this.model,
        captureContent: tracing.captureContent,
        prompt: llmRequest.contents,
      })
    );
  }

  override connect(llmRequest: LlmRequest): Promise<BaseLlmConnection> {
    return this.inner.connect(llmRequest);
  }
}
