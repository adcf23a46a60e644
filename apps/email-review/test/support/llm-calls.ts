import type { Emulator } from '@repo/llm-emulator';

interface ChatBody {
  response_format?: { type?: string; json_schema?: { name?: string } };
}

// A reviewer's edit queues a guideline derivation (issue 40): a model call of its own, in the
// background, not one of the thread's workflow steps.
const isDerivation = (body: unknown) =>
  (body as ChatBody | null)?.response_format?.json_schema?.name === 'reviewer_guidelines';

/**
 * The Chat Completions requests of the threads' workflow steps, in order: a derivation an earlier
 * test's edit queued may land at any time, and is left out.
 */
export function workflowRequests(emulator: Emulator) {
  return emulator.requests
    .list()
    .filter((request) => request.provider === 'openai' && !isDerivation(request.body));
}

/** The Chat Completions requests the emulator received (every attempt, retries included). */
export function llmCalls(emulator: Emulator) {
  const openai = emulator.requests.list().filter((request) => request.provider === 'openai');
  const calls = workflowRequests(emulator);
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
