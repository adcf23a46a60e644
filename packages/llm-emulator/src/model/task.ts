/** A JSON Schema (OpenAI) or a Gemini `Schema` object; both are read by the same generator. */
export type JsonSchema = Record<string, unknown>;

export interface ToolSpec {
  name: string;
  description: string;
  parameters: JsonSchema | undefined;
}

export interface ToolCall {
  name: string;
  args: Record<string, unknown>;
}

/** One conversation turn, normalised from either provider's wire format. */
export type Turn =
  | { role: 'user'; text: string }
  | { role: 'assistant'; text: string; toolCalls: ToolCall[] }
  | { role: 'tool'; name: string; result: unknown };

export type OutputFormat = { kind: 'text' } | { kind: 'json'; schema: JsonSchema | undefined };

/** What the emulated model is asked to do, independent of the provider. */
export interface ModelTask {
  system: string;
  turns: Turn[];
  tools: ToolSpec[];
  toolMode: 'auto' | 'none' | 'required';
  /** Tools the model may call (OpenAI named tool_choice, Gemini allowedFunctionNames); empty = all. */
  allowedTools: string[];
  output: OutputFormat;
}

export type Decision = { kind: 'text'; text: string } | { kind: 'tool_calls'; calls: ToolCall[] };
