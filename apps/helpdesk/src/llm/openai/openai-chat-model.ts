import { BaseLlm, type BaseLlmConnection, type LlmRequest, type LlmResponse } from '@google/adk';
import OpenAI from 'openai';
import { withDeadlineAndRetry, type CallPolicy } from '../resilient-call.js';
import { chatCompletionParams } from './chat-request.js';
import { llmResponseOf, llmResponsesOf } from './chat-response.js';

interface OpenAiChatModelParams {
  model: string;
  apiKey: string;
  /** The SDK's base URL (`http://localhost:11434/v1`); OpenAI's own when absent. */
  baseUrl?: string | undefined;
}

/**
 * ADK's model interface on any OpenAI Chat Completions–compatible endpoint (ADK ships Gemini only),
 * under the Gemini path's deadline and retry policy (resilient-call.ts): the SDK's own are off.
 */
export class OpenAiChatModel extends BaseLlm {
  private readonly client: OpenAI;

  constructor(
    params: OpenAiChatModelParams,
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
    const attempt = stream
      ? (signal: AbortSignal, progress: () => void) => this.streamed(params, signal, progress)
      : (signal: AbortSignal) => this.whole(params, signal);
    return withDeadlineAndRetry(attempt, this.policy, { stream, abortSignal });
  }

  override connect(): Promise<BaseLlmConnection> {
    return Promise.reject(new Error('Live (bidirectional) connections need a Gemini model.'));
  }

  private async *whole(
    params: OpenAI.ChatCompletionCreateParamsNonStreaming,
    signal: AbortSignal,
  ): AsyncGenerator<LlmResponse, void> {
    yield llmResponseOf(await this.client.chat.completions.create(params, { signal }));
  }

  private async *streamed(
    params: OpenAI.ChatCompletionCreateParamsNonStreaming,
    signal: AbortSignal,
    progress: () => void,
  ): AsyncGenerator<LlmResponse, void> {
    const chunks = await this.client.chat.completions.create(
      { ...params, stream: true, stream_options: { include_usage: true } },
      { signal },
    );
    yield* llmResponsesOf(chunksWithProgress(chunks, progress));
  }
}

/** Each chunk as it arrives counts as the model's progress, yielded onward or not. */
async function* chunksWithProgress<T>(chunks: AsyncIterable<T>, progress: () => void) {
  for await (const chunk of chunks) {
    progress();
    yield chunk;
  }
}
