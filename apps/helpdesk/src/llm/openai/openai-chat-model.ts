import { BaseLlm, type BaseLlmConnection, type LlmRequest, type LlmResponse } from '@google/adk';
import OpenAI from 'openai';
import type { ModelSettings } from '../model.js';
import { withDeadlineAndRetry, type CallPolicy } from '../resilient-call.js';
import { chatCompletionParams } from './chat-request.js';
import { llmResponseOf, llmResponsesOf } from './chat-response.js';

/**
 * ADK's model interface on any OpenAI Chat Completions–compatible endpoint (ADK ships Gemini only),
 * under the Gemini path's deadline and retry policy (resilient-call.ts): the SDK's own are off.
 */
export class OpenAiChatModel extends BaseLlm {
  private readonly client: OpenAI;

  constructor(
    /** `baseUrl`: the SDK's (`http://localhost:11434/v1`); OpenAI's own when absent. */
    params: Pick<ModelSettings, 'model' | 'apiKey' | 'baseUrl'>,
    private readonly policy: CallPolicy,
  ) {
    super({ model: params.model });
    this.client = new OpenAI({
      apiKey: params.apiKey,
      baseURL: params.baseUrl,
      maxRetries: 0,
      // The deadline (policy.timeoutMs) aborts the call; this only keeps the SDK's 10 min out of the way.
      timeout: policy.timeoutMs * 2,
    });
  }

  override generateContentAsync(
    llmRequest: LlmRequest,
    stream = false,
    abortSignal?: AbortSignal,
  ): AsyncGenerator<LlmResponse, void> {
    this.maybeAppendUserContent(llmRequest);
    const params = chatCompletionParams(llmRequest, this.model);
    const completions = this.client.chat.completions;
    async function* attempt(signal: AbortSignal, progress: () => void) {
      if (!stream) {
        yield llmResponseOf(await completions.create(params, { signal }));
        return;
      }
      const options = { stream: true, stream_options: { include_usage: true } } as const;
      yield* llmResponsesOf(
        await completions.create({ ...params, ...options }, { signal }),
        progress,
      );
    }
    return withDeadlineAndRetry(attempt, this.policy, { stream, abortSignal });
  }

  override connect(): Promise<BaseLlmConnection> {
    return Promise.reject(new Error('Live (bidirectional) connections need a Gemini model.'));
  }
}
