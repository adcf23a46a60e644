import { z } from 'zod';
import { isAdkContextLine } from '../model/adk-context.js';
import type { JsonSchema, ModelTask, Turn } from '../model/task.js';
import { BadRequest } from '../server/reply.js';

const record = z.record(z.string(), z.unknown());

const part = z.looseObject({
  text: z.string().optional(),
  thought: z.boolean().optional(),
  functionCall: z.looseObject({ name: z.string(), args: record.optional() }).optional(),
  functionResponse: z
    .looseObject({ name: z.string(), response: z.unknown().optional() })
    .optional(),
});

const content = z.looseObject({ role: z.string().optional(), parts: z.array(part).default([]) });

export const generateContentRequestSchema = z.looseObject({
  contents: z.array(content).min(1),
  systemInstruction: z.union([z.string(), content]).optional(),
  tools: z
    .array(
      z.looseObject({
        functionDeclarations: z
          .array(
            z.looseObject({
              name: z.string().min(1),
              description: z.string().optional(),
              parameters: record.optional(),
              parametersJsonSchema: record.optional(),
            }),
          )
          .optional(),
      }),
    )
    .optional(),
  toolConfig: z
    .looseObject({
      functionCallingConfig: z
        .looseObject({
          mode: z.string().optional(),
          allowedFunctionNames: z.array(z.string()).optional(),
        })
        .optional(),
    })
    .optional(),
  generationConfig: z
    .looseObject({
      responseMimeType: z.string().optional(),
      responseSchema: record.optional(),
      responseJsonSchema: record.optional(),
    })
    .optional(),
});

export type GenerateContentRequest = z.infer<typeof generateContentRequestSchema>;

export function parseGenerateContentRequest(body: unknown): GenerateContentRequest {
  const parsed = generateContentRequestSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new BadRequest(
      `Invalid JSON payload at '${issue?.path.join('.') ?? ''}': ${issue?.message ?? 'invalid'}`,
    );
  }
  return parsed.data;
}

function turnsOf(contents: GenerateContentRequest['contents']): Turn[] {
  const turns: Turn[] = [];
  for (const c of contents) {
    const texts = c.parts
      .filter((p) => p.text !== undefined && !p.thought)
      .map((p) => p.text ?? '');
    if (c.role === 'model') {
      const toolCalls = c.parts.flatMap((p) =>
        p.functionCall ? [{ name: p.functionCall.name, args: p.functionCall.args ?? {} }] : [],
      );
      turns.push({ role: 'assistant', text: texts.join('\n'), toolCalls });
      continue;
    }
    const userText = texts.filter((t) => !isAdkContextLine(t)).join('\n');
    if (userText.trim()) turns.push({ role: 'user', text: userText });
    for (const p of c.parts) {
      if (p.functionResponse)
        turns.push({
          role: 'tool',
          name: p.functionResponse.name,
          result: p.functionResponse.response,
        });
    }
  }
  return turns;
}

const MODES: Record<string, ModelTask['toolMode']> = {
  AUTO: 'auto',
  ANY: 'required',
  NONE: 'none',
  VALIDATED: 'auto',
};

/** The provider-neutral task behind a `generateContent` request. */
export function generateContentTask(req: GenerateContentRequest): ModelTask {
  const system =
    typeof req.systemInstruction === 'string'
      ? req.systemInstruction
      : (req.systemInstruction?.parts ?? []).map((p) => p.text ?? '').join('\n');
  const calling = req.toolConfig?.functionCallingConfig;
  const config = req.generationConfig;
  const json =
    config?.responseMimeType === 'application/json' ||
    config?.responseSchema ||
    config?.responseJsonSchema;
  return {
    system,
    turns: turnsOf(req.contents),
    tools: (req.tools ?? []).flatMap((t) =>
      (t.functionDeclarations ?? []).map((f) => ({
        name: f.name,
        description: f.description ?? '',
        parameters: (f.parametersJsonSchema ?? f.parameters) as JsonSchema | undefined,
      })),
    ),
    toolMode: MODES[calling?.mode ?? 'AUTO'] ?? 'auto',
    allowedTools: calling?.allowedFunctionNames ?? [],
    output: json
      ? {
          kind: 'json',
          schema: (config?.responseJsonSchema ?? config?.responseSchema) as JsonSchema | undefined,
        }
      : { kind: 'text' },
  };
}
