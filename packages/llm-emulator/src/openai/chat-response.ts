import { randomBytes } from 'node:crypto';
import { estimateTokens } from '../model/tokens.js';
import type { Decision } from '../model/task.js';

interface CompletionMeta {
  id: string;
  created: number;
  model: string;
  promptTokens: number;
}

export function completionMeta(model: string, promptChars: number): CompletionMeta {
  return {
    id: `chatcmpl-${randomBytes(12).toString('hex')}`,
    created: Math.floor(Date.now() / 1000),
    model,
    promptTokens: estimateTokens(promptChars),
  };
}

function toolCallId(index: number, name: string): string {
  return `call_${Buffer.from(`${name}:${index}`).toString('base64url').slice(0, 20)}${index}`;
}

function outputChars(decision: Decision): number {
  return decision.kind === 'text'
    ? decision.text.length
    : decision.calls.reduce((n, c) => n + c.name.length + JSON.stringify(c.args).length, 0);
}

function usage(meta: CompletionMeta, decision: Decision) {
  const completion = estimateTokens(outputChars(decision));
  return {
    prompt_tokens: meta.promptTokens,
    completion_tokens: completion,
    total_tokens: meta.promptTokens + completion,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

/** A `chat.completion` object carrying every field the OpenAI schema marks required. */
export function chatCompletion(meta: CompletionMeta, decision: Decision) {
  const message =
    decision.kind === 'text'
      ? { role: 'assistant', content: decision.text, refusal: null, annotations: [] }
      : {
          role: 'assistant',
          content: null,
          refusal: null,
          annotations: [],
          tool_calls: decision.calls.map((c, i) => ({
            id: toolCallId(i, c.name),
            type: 'function',
            function: { name: c.name, arguments: JSON.stringify(c.args) },
          })),
        };
  return {
    id: meta.id,
    object: 'chat.completion',
    created: meta.created,
    model: meta.model,
    choices: [
      {
        index: 0,
        message,
        logprobs: null,
        finish_reason: decision.kind === 'text' ? 'stop' : 'tool_calls',
      },
    ],
    usage: usage(meta, decision),
    service_tier: 'default',
    system_fingerprint: 'fp_llm_emulator',
  };
}

function pieces(text: string, wordsPerPiece: number): string[] {
  const words = text.match(/\S+\s*|\s+/g) ?? [];
  const out: string[] = [];
  for (let i = 0; i < words.length; i += wordsPerPiece)
    out.push(words.slice(i, i + wordsPerPiece).join(''));
  return out;
}

/** The `chat.completion.chunk` objects of a streamed completion, ending with the usage chunk when asked for. */
export function chatCompletionChunks(
  meta: CompletionMeta,
  decision: Decision,
  includeUsage: boolean,
): unknown[] {
  const chunk = (delta: Record<string, unknown>, finish: string | null) => ({
    id: meta.id,
    object: 'chat.completion.chunk',
    created: meta.created,
    model: meta.model,
    system_fingerprint: 'fp_llm_emulator',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...(includeUsage ? { usage: null } : {}),
  });
  const chunks: unknown[] = [chunk({ role: 'assistant', content: '', refusal: null }, null)];
  if (decision.kind === 'text') {
    for (const piece of pieces(decision.text, 4)) chunks.push(chunk({ content: piece }, null));
    chunks.push(chunk({}, 'stop'));
  } else {
    decision.calls.forEach((c, index) => {
      chunks.push(
        chunk(
          {
            tool_calls: [
              {
                index,
                id: toolCallId(index, c.name),
                type: 'function',
                function: { name: c.name, arguments: '' },
              },
            ],
          },
          null,
        ),
      );
      for (const piece of JSON.stringify(c.args).match(/[\s\S]{1,24}/g) ?? []) {
        chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }, null));
      }
    });
    chunks.push(chunk({}, 'tool_calls'));
  }
  if (includeUsage) {
    chunks.push({ ...(chunk({}, null) as object), choices: [], usage: usage(meta, decision) });
  }
  return chunks;
}
