import { decide } from '../model/decide.js';
import type { Reply } from '../server/reply.js';
import { generateContentTask, parseGenerateContentRequest } from './gemini-request.js';
import { generateContentChunks, generateContentResponse } from './gemini-response.js';

/** `POST /v1beta/models/{model}:generateContent` and `:streamGenerateContent`. */
export function generateContentRoute(
  model: string,
  stream: boolean,
  body: unknown,
  bodyChars: number,
): Reply {
  const decision = decide(generateContentTask(parseGenerateContentRequest(body)));
  if (stream) return { kind: 'sse', events: generateContentChunks(model, bodyChars, decision) };
  return { kind: 'json', status: 200, body: generateContentResponse(model, bodyChars, decision) };
}
