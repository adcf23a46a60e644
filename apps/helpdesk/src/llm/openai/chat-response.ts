import type { LlmResponse } from '@google/adk';
import { FinishReason } from '@google/genai';
import type OpenAI from 'openai';

const FINISH_REASONS: Record<string, FinishReason> = {
  stop: FinishReason.STOP,
  // Gemini ends a function call with STOP too; ADK reads the parts, not the reason.
  tool_calls: FinishReason.STOP,
  function_call: FinishReason.STOP,
  length: FinishReason.MAX_TOKENS,
  content_filter: FinishReason.SAFETY,
};

/** A tool call's JSON arguments; a model that wrote invalid JSON fails the call (a model error). */
function argsOf(name: string, json: string): Record<string, unknown> {
  try {
    const args: unknown = JSON.parse(json || '{}');
    if (args && typeof args === 'object' && !Array.isArray(args)) {
      return args as Record<string, unknown>;
    }
  } catch {
    // reported below
  }
  throw new Error(`the model called ${name} with arguments that are not a JSON object`);
}

interface ToolCallSoFar {
  id: string | undefined;
  name: string;
  arguments: string;
}

function finalResponse(
  text: string,
  toolCalls: ToolCallSoFar[],
  finish: string | null | undefined,
  usage: OpenAI.CompletionUsage | null | undefined,
): LlmResponse {
  const functionCalls = toolCalls.map(({ id, name, arguments: json }) => ({
    functionCall: { ...(id ? { id } : {}), name, args: argsOf(name, json) },
  }));
  return {
    content: { role: 'model', parts: [...(text ? [{ text }] : []), ...functionCalls] },
    ...(finish ? { finishReason: FINISH_REASONS[finish] ?? FinishReason.OTHER } : {}),
    ...(usage
      ? {
          usageMetadata: {
            promptTokenCount: usage.prompt_tokens,
            candidatesTokenCount: usage.completion_tokens,
            totalTokenCount: usage.total_tokens,
          },
        }
      : {}),
  };
}

/** A non-streamed completion as ADK's response: text and `tool_calls` as parts. */
export function llmResponseOf(completion: OpenAI.ChatCompletion): LlmResponse {
  const choice = completion.choices[0];
  const toolCalls = (choice?.message.tool_calls ?? []).flatMap((call) =>
    call.type === 'function'
      ? [{ id: call.id, name: call.function.name, arguments: call.function.arguments }]
      : [],
  );
  return finalResponse(
    choice?.message.content ?? '',
    toolCalls,
    choice?.finish_reason,
    completion.usage,
  );
}

/**
 * A streamed completion as ADK's Gemini streams it: each text delta as a `partial` response, then
 * one final response with the whole text, the function calls (assembled by index), usage, finish.
 * `progress` hears each chunk as it arrives, yielded onward or not.
 */
export async function* llmResponsesOf(
  chunks: AsyncIterable<OpenAI.ChatCompletionChunk>,
  progress: () => void = () => undefined,
): AsyncGenerator<LlmResponse, void> {
  let text = '';
  const toolCalls: ToolCallSoFar[] = [];
  let finish: string | null | undefined;
  let usage: OpenAI.CompletionUsage | null | undefined;
  for await (const chunk of chunks) {
    progress();
    usage = chunk.usage ?? usage;
    const choice = chunk.choices[0];
    if (!choice) continue;
    finish = choice.finish_reason ?? finish;
    const piece = choice.delta.content;
    if (piece) {
      text += piece;
      yield { content: { role: 'model', parts: [{ text: piece }] }, partial: true };
    }
    for (const delta of choice.delta.tool_calls ?? []) {
      const call = (toolCalls[delta.index] ??= { id: undefined, name: '', arguments: '' });
      call.id = delta.id ?? call.id;
      call.name += delta.function?.name ?? '';
      call.arguments += delta.function?.arguments ?? '';
    }
  }
  yield {
    ...finalResponse(text, toolCalls.filter(Boolean), finish, usage),
    partial: false,
    turnComplete: true,
  };
}
