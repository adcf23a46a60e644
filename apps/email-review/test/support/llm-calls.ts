import type { Emulator } from '@repo/llm-emulator';

interface ChatBody {
  response_format?: { type?: string; json_schema?: { name?: string } };
}

/** The Chat Completions requests the emulator received (every attempt, retries included). */
export function llmCalls(emulator: Emulator) {
  const openai = emulator.requests.list().filter((request) => request.provider === 'openai');
  // A reviewer's edit queues a guideline derivation (issue 40): a model call of its own, in the
  // background, not one of the thread's workflow steps.
  const isDerivation = (body: unknown) =>
    (body as ChatBody | null)?.response_format?.json_schema?.name === 'reviewer_guidelines';
  const calls = openai.filter((call) => !isDerivation(call.body));
  const isClassify = (body: unknown) =>
    (body as ChatBody | null)?.response_format?.type === 'json_schema';
  return {
    derive: openai.length - calls.length,
    total: calls.length,
    classify: calls.filter((call) => isClassify(call.body)).length,
    draft: calls.filter((call) => !isClassify(call.body)).length,
    statuses: calls.map((call) => call.status),
  };
}
