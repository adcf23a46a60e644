import { z } from 'zod';
import { isAdkContextLine } from '../model/adk-context.js';
import type { JsonSchema, ModelTask, ToolCall, Turn } from '../model/task.js';
import { BadRequest } from '../server/reply.js';

const textPart = z.looseObject({ type: z.string(), text: z.string().optional() });

const message = z.looseObject({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']),
  content: z.union([z.string(), z.array(textPart), z.null()]).optional(),
  name: z.string().optional(),
  tool_calls: z
    .array(
      z.looseObject({
        id: z.string(),
        function: z.looseObject({ name: z.string(), arguments: z.string() }),
      }),
    )
    .nullish(),
  tool_call_id: z.string().optional(),
});

const record = z.record(z.string(), z.unknown());

export const chatRequestSchema = z.looseObject({
  model: z.string().min(1),
  messages: z.array(message).min(1),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullish(),
  tools: z
    .array(
      z.looseObject({
        type: z.string(),
        function: z.looseObject({
          name: z.string().min(1),
          description: z.string().optional(),
          parameters: record.optional(),
        }),
      }),
    )
    .optional(),
  tool_choice: z
    .union([
      z.enum(['none', 'auto', 'required']),
      z.looseObject({ type: z.string(), function: z.looseObject({ name: z.string() }) }),
    ])
    .optional(),
  response_format: z
    .discriminatedUnion('type', [
      z.looseObject({ type: z.literal('text') }),
      z.looseObject({ type: z.literal('json_object') }),
      z.looseObject({
        type: z.literal('json_schema'),
        json_schema: z.looseObject({ name: z.string(), schema: record.optional() }),
      }),
    ])
    .optional(),
});

export type ChatRequest = z.infer<typeof chatRequestSchema>;

export function parseChatRequest(body: unknown): ChatRequest {
  const parsed = chatRequestSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new BadRequest(
      `Invalid request body at '${issue?.path.join('.') ?? ''}': ${issue?.message ?? 'invalid'}`,
    );
  }
  return parsed.data;
}

function textOf(content: z.infer<typeof message>['content']): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((p) => p.text ?? '').join('\n');
}

/** A user message's text without ADK's other-agent context parts (as the Gemini side reads it). */
function userTextOf(content: z.infer<typeof message>['content']): string {
  if (typeof content === 'string') return isAdkContextLine(content) ? '' : content;
  return (content ?? [])
    .map((p) => p.text ?? '')
    .filter((text) => !isAdkContextLine(text))
    .join('\n');
}

function parseArgs(raw: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(raw);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The provider-neutral task behind a Chat Completions request. */
export function chatTask(req: ChatRequest): ModelTask {
  const system: string[] = [];
  const turns: Turn[] = [];
  const toolNames = new Map<string, string>();
  for (const m of req.messages) {
    if (m.role === 'system' || m.role === 'developer') system.push(textOf(m.content));
    else if (m.role === 'user') {
      const text = userTextOf(m.content);
      if (text.trim()) turns.push({ role: 'user', text });
    } else if (m.role === 'assistant') {
      const toolCalls: ToolCall[] = (m.tool_calls ?? []).map((c) => {
        toolNames.set(c.id, c.function.name);
        return { name: c.function.name, args: parseArgs(c.function.arguments) };
      });
      turns.push({ role: 'assistant', text: textOf(m.content), toolCalls });
    } else {
      const name = (m.tool_call_id && toolNames.get(m.tool_call_id)) ?? m.name ?? 'tool';
      turns.push({ role: 'tool', name, result: textOf(m.content) });
    }
  }
  const choice = req.tool_choice;
  const format = req.response_format;
  return {
    system: system.join('\n'),
    turns,
    tools: (req.tools ?? []).map((t) => ({
      name: t.function.name,
      description: t.function.description ?? '',
      parameters: t.function.parameters as JsonSchema | undefined,
    })),
    toolMode: typeof choice === 'object' ? 'required' : (choice ?? 'auto'),
    allowedTools: typeof choice === 'object' ? [choice.function.name] : [],
    output:
      format?.type === 'json_schema'
        ? { kind: 'json', schema: format.json_schema.schema as JsonSchema | undefined }
        : format?.type === 'json_object'
          ? { kind: 'json', schema: undefined }
          : { kind: 'text' },
  };
}
