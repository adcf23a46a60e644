import type { EmulatorRequest } from './emulator-process.js';

const REF = /(?:Ref: |\(ref )([A-Za-z0-9_.:-]+)/;

interface GeminiBody {
  contents?: Array<{ role?: string; parts?: Array<{ text?: string }> }>;
}

interface OpenAiBody {
  messages?: Array<{ role?: string; content?: unknown }>;
}

/**
 * The tag of the user text a model call answers: for Gemini, the last user turn with text (the
 * request also carries the earlier turns); for OpenAI, the first tag found in the user messages.
 */
export function callTag(request: EmulatorRequest): string | undefined {
  if (request.provider === 'gemini') {
    const contents = (request.body as GeminiBody).contents ?? [];
    for (let i = contents.length - 1; i >= 0; i -= 1) {
      const turn = contents[i];
      if (turn?.role !== 'user') continue;
      const text = turn.parts?.map((p) => p.text ?? '').join('') ?? '';
      const tag = REF.exec(text)?.[1];
      if (tag) return tag;
    }
    return undefined;
  }
  for (const message of (request.body as OpenAiBody).messages ?? []) {
    if (message.role !== 'user') continue;
    const tag = REF.exec(
      typeof message.content === 'string' ? message.content : JSON.stringify(message.content),
    )?.[1];
    if (tag) return tag;
  }
  return undefined;
}

/** How many model calls each tag caused. */
export function callsByTag(requests: EmulatorRequest[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const request of requests) {
    const tag = callTag(request);
    if (tag) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  }
  return counts;
}
