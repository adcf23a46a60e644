import { decide } from '../model/decide.js';
import type { Reply } from '../server/reply.js';
import { chatTask, parseChatRequest } from './chat-request.js';
import { chatCompletion, chatCompletionChunks, completionMeta } from './chat-response.js';

/** `POST /v1/chat/completions`, streaming or not. */
export function chatCompletionsRoute(
  body: unknown,
  bodyChars: number,
): { model: string; reply: Reply } {
  const request = parseChatRequest(body);
  const decision = decide(chatTask(request));
  const meta = completionMeta(request.model, bodyChars);
  if (request.stream) {
    const includeUsage = request.stream_options?.include_usage === true;
    return {
      model: request.model,
      reply: {
        kind: 'sse',
        events: chatCompletionChunks(meta, decision, includeUsage),
        done: true,
      },
    };
  }
  return {
    model: request.model,
    reply: { kind: 'json', status: 200, body: chatCompletion(meta, decision) },
  };
}
