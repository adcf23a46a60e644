import { randomBytes } from 'node:crypto';
import { estimateTokens } from '../model/tokens.js';
import type { Decision } from '../model/task.js';

function partsOf(decision: Decision): unknown[] {
  return decision.kind === 'text'
    ? [{ text: decision.text }]
    : decision.calls.map((c) => ({ functionCall: { name: c.name, args: c.args } }));
}

function outputChars(decision: Decision): number {
  return decision.kind === 'text'
    ? decision.text.length
    : decision.calls.reduce((n, c) => n + c.name.length + JSON.stringify(c.args).length, 0);
}

function usageMetadata(promptChars: number, decision: Decision) {
  const prompt = estimateTokens(promptChars);
  const candidates = estimateTokens(outputChars(decision));
  return {
    promptTokenCount: prompt,
    candidatesTokenCount: candidates,
    totalTokenCount: prompt + candidates,
  };
}

function envelope({
  model,
  responseId,
  parts,
  finish,
  usage,
}: {
  model: string;
  responseId: string;
  parts: unknown[];
  finish: boolean;
  usage?: unknown;
}) {
  return {
    candidates: [
      { content: { role: 'model', parts }, ...(finish ? { finishReason: 'STOP' } : {}), index: 0 },
    ],
    usageMetadata: usage,
    modelVersion: model,
    responseId,
  };
}

/** A `GenerateContentResponse`. */
export function generateContentResponse(model: string, promptChars: number, decision: Decision) {
  const id = randomBytes(9).toString('base64url');
  const usage = usageMetadata(promptChars, decision);
  return envelope({ model, responseId: id, parts: partsOf(decision), finish: true, usage });
}

/** The chunks of `streamGenerateContent?alt=sse`: text in pieces, function calls whole, usage on the last chunk. */
export function generateContentChunks(
  model: string,
  promptChars: number,
  decision: Decision,
): unknown[] {
  const id = randomBytes(9).toString('base64url');
  const usage = usageMetadata(promptChars, decision);
  if (decision.kind !== 'text')
    return [envelope({ model, responseId: id, parts: partsOf(decision), finish: true, usage })];
  const words = decision.text.match(/\S+\s*|\s+/g) ?? [''];
  const pieces: string[] = [];
  for (let i = 0; i < words.length; i += 6) pieces.push(words.slice(i, i + 6).join(''));
  return pieces.map((text, i) => {
    const last = i === pieces.length - 1;
    return envelope({
      model,
      responseId: id,
      parts: [{ text }],
      finish: last,
      usage: last ? usage : undefined,
    });
  });
}
