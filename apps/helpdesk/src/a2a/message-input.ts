import { A2AError } from '@a2a-js/sdk/server';
import type { MessageSendParams, Part } from '@a2a-js/sdk';
import { chatRequestSchema } from '../routes/schemas.js';
import { checkParams, invalidParams, messageSendParamsSchema } from './rpc-params.js';

/** A2A's "Content type not supported" (the spec's -32005): a message with no text to answer. */
const CONTENT_TYPE_NOT_SUPPORTED = -32005;

/** The text of a message: its text parts, in order, one per line. */
export function textOf(params: MessageSendParams): string {
  return params.message.parts
    .flatMap((part) => (part.kind === 'text' ? [part.text] : []))
    .join('\n');
}

/**
 * Checks a message's params (protocol 0.3's types), then its text with POST /chat's zod schema:
 * what POST /chat refuses is invalid params (-32602) with the same issues; a message without text
 * parts is content the agent does not take (-32005).
 */
export function checkMessage(params: MessageSendParams): void {
  checkParams(messageSendParamsSchema, params);
  if (!params.message.parts.some((part: Part) => part.kind === 'text')) {
    throw new A2AError(CONTENT_TYPE_NOT_SUPPORTED, 'The message needs a text part.', {
      code: 'unsupported_content',
      accepted: ['text/plain'],
    });
  }
  const parsed = chatRequestSchema.safeParse({
    // A contextId the SDK will make up (none given) is a valid session id.
    session_id: params.message.contextId ?? 'new',
    message: textOf(params),
  });
  if (!parsed.success) {
    throw invalidParams(
      parsed.error.issues.map((issue) => ({
        path: issue.path[0] === 'session_id' ? 'message.contextId' : 'message.parts',
        message: issue.message,
      })),
    );
  }
}
