import type { LlmRequest } from '@google/adk';
import type { Content, FunctionDeclaration, Part } from '@google/genai';
import type OpenAI from 'openai';
import { jsonSchemaOf } from './json-schema-of.js';

type Message = OpenAI.ChatCompletionMessageParam;
type ChatParams = OpenAI.ChatCompletionCreateParamsNonStreaming;

const textsOf = (parts: Part[]) =>
  parts.filter((p) => typeof p.text === 'string' && !p.thought).map((p) => p.text as string);

/** A model turn: its text, and its function calls as `tool_calls`. */
function assistantMessage(parts: Part[]): Message | undefined {
  const text = textsOf(parts).join('');
  const toolCalls = parts.flatMap((p, index) =>
    p.functionCall
      ? [
          {
            id: p.functionCall.id ?? `call_${index}`,
            type: 'function' as const,
            function: {
              name: p.functionCall.name ?? '',
              arguments: JSON.stringify(p.functionCall.args ?? {}),
            },
          },
        ]
      : [],
  );
  if (!text && toolCalls.length === 0) return undefined;
  return {
    role: 'assistant',
    content: text || null,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
  };
}

/**
 * A user turn: function responses as `tool` messages (they must follow the assistant message that
 * called them), then its text, parts kept apart (ADK adds other agents' turns as parts of their own).
 */
function userMessages(parts: Part[]): Message[] {
  const messages: Message[] = parts.flatMap((p, index) =>
    p.functionResponse
      ? [
          {
            role: 'tool' as const,
            tool_call_id: p.functionResponse.id ?? `call_${index}`,
            content: JSON.stringify(p.functionResponse.response ?? {}),
          },
        ]
      : [],
  );
  const texts = textsOf(parts);
  if (texts.length === 1) messages.push({ role: 'user', content: texts[0] as string });
  if (texts.length > 1) {
    messages.push({ role: 'user', content: texts.map((text) => ({ type: 'text', text })) });
  }
  return messages;
}

function messagesOf(system: string, contents: Content[]): Message[] {
  const messages: Message[] = system ? [{ role: 'system', content: system }] : [];
  for (const content of contents) {
    const parts = content.parts ?? [];
    if (content.role === 'model') {
      const message = assistantMessage(parts);
      if (message) messages.push(message);
    } else {
      messages.push(...userMessages(parts));
    }
  }
  return messages;
}

/** ADK 1.2.0 declares a tool's parameters as a Gemini schema (FunctionTool's `parameters`). */
function toolOf(declaration: FunctionDeclaration): OpenAI.ChatCompletionFunctionTool {
  const { name = '', description, parameters } = declaration;
  return {
    type: 'function',
    function: {
      name,
      ...(description ? { description } : {}),
      parameters: parameters ? jsonSchemaOf(parameters) : { type: 'object', properties: {} },
    },
  };
}

function toolChoiceOf(request: LlmRequest): ChatParams['tool_choice'] {
  const calling = request.config?.toolConfig?.functionCallingConfig;
  const allowed = calling?.allowedFunctionNames ?? [];
  if (calling?.mode === 'NONE') return 'none';
  if (calling?.mode === 'ANY') {
    return allowed.length === 1
      ? { type: 'function', function: { name: allowed[0] as string } }
      : 'required';
  }
  return undefined;
}

/**
 * ADK's request as Chat Completions parameters: the system instruction, the contents as messages
 * (function calls as `tool_calls`, responses as `tool` messages), the function declarations as
 * JSON Schema tools, and the sampling settings an OpenAI-compatible endpoint understands.
 */
export function chatCompletionParams(request: LlmRequest, model: string): ChatParams {
  const config = request.config ?? {};
  const declarations = (config.tools ?? []).flatMap((tool) =>
    'functionDeclarations' in tool ? (tool.functionDeclarations ?? []) : [],
  );
  const toolChoice = toolChoiceOf(request);
  // ADK 1.2.0 writes the system instruction as one string (LlmRequest's appendInstructions).
  const system = typeof config.systemInstruction === 'string' ? config.systemInstruction : '';
  return {
    model: request.model ?? model,
    messages: messagesOf(system, request.contents),
    ...(declarations.length > 0 ? { tools: declarations.map(toolOf) } : {}),
    ...(toolChoice ? { tool_choice: toolChoice } : {}),
    ...(config.temperature !== undefined ? { temperature: config.temperature } : {}),
    ...(config.topP !== undefined ? { top_p: config.topP } : {}),
    // max_tokens rather than max_completion_tokens: the one every compatible server knows.
    ...(config.maxOutputTokens !== undefined ? { max_tokens: config.maxOutputTokens } : {}),
    ...(config.stopSequences?.length ? { stop: config.stopSequences } : {}),
  };
}
