import type { Emulator } from '@repo/llm-emulator';

interface ChatBody {
  response_format?: { type?: string };
}

/** The Chat Completions requests the emulator received (every attempt, retries included). */
export function llmCalls(emulator: Emulator) {
  const calls = emulator.requests.list().filter((request) => request.provider === 'openai');
  const isClassify = (body: unknown) =>
    (body as ChatBody | null)?.response_format?.type === 'json_schema';
  return {
    total: calls.length,
    classify: calls.filter((call) => isClassify(call.body)).length,
    draft: calls.filter((call) => !isClassify(call.body)).length,
    statuses: calls.map((call) => call.status),
  };
}
