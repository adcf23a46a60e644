import type { Message, MessageSendParams, Part } from '@a2a-js/sdk';
import { A2AError } from '@a2a-js/sdk/server';
import { z } from 'zod';
import { chatRequestSchema } from '../routes/schemas.js';

/**
 * The params of each A2A method as protocol 0.3 types them, checked before the SDK's handler reads
 * them (it trusts their shape, answering e.g. a numeric task id -32001 where JSON-RPC says -32602).
 * Ids are bounded: they are echoed into answers and logs.
 */
const id = z.string().min(1).max(256);
const metadata = z.record(z.string(), z.unknown());

const part = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), text: z.string(), metadata: metadata.optional() }),
  z.object({ kind: z.literal('data'), data: metadata, metadata: metadata.optional() }),
  z.object({
    kind: z.literal('file'),
    file: z.union([
      z.object({ bytes: z.string(), name: z.string().optional(), mimeType: z.string().optional() }),
      z.object({ uri: z.string(), name: z.string().optional(), mimeType: z.string().optional() }),
    ]),
    metadata: metadata.optional(),
  }),
]);

const messageSendParamsSchema = z.object({
  message: z.object({
    kind: z.literal('message'),
    role: z.enum(['user', 'agent']),
    messageId: id,
    parts: z.array(part),
    contextId: id.optional(),
    taskId: id.optional(),
    referenceTaskIds: z.array(id).optional(),
    extensions: z.array(z.string()).optional(),
    metadata: metadata.optional(),
  }),
  configuration: z
    .object({
      acceptedOutputModes: z.array(z.string()).optional(),
      blocking: z.boolean().optional(),
      historyLength: z.number().int().nonnegative().optional(),
      pushNotificationConfig: z.object({}).loose().optional(),
    })
    .optional(),
  metadata: metadata.optional(),
});

export const taskQueryParamsSchema = z.object({
  id,
  historyLength: z.number().int().nonnegative().optional(),
  metadata: metadata.optional(),
});

export const taskIdParamsSchema = z.object({ id, metadata: metadata.optional() });

type Issue = z.core.$ZodIssue;
const pathOfParam = (issue: Issue) => issue.path.map(String).join('.') || '(params)';

/** Throws -32602 unless `value` has the schema's shape, issues worded as POST /chat's. */
export function checkParams<T>(schema: z.ZodType<T>, value: unknown, pathOf = pathOfParam): void {
  const parsed = schema.safeParse(value);
  if (parsed.success) return;
  throw A2AError.invalidParams('The params are not valid.', {
    code: 'validation_failed',
    errors: parsed.error.issues.map((issue) => ({ path: pathOf(issue), message: issue.message })),
  });
}

/** A2A's "Content type not supported" (the spec's -32005): a message with no text to answer. */
const CONTENT_TYPE_NOT_SUPPORTED = -32005;

/** The text of a message: its text parts, in order, one per line. */
export function textOf(message: Message): string {
  return message.parts.flatMap((part) => (part.kind === 'text' ? [part.text] : [])).join('\n');
}

/**
 * Checks a message's params, then its text as POST /chat does (-32602 with the same issues); a
 * message without text parts is content the agent does not take (-32005).
 */
export function checkMessage(params: MessageSendParams): void {
  checkParams(messageSendParamsSchema, params);
  if (!params.message.parts.some((part: Part) => part.kind === 'text')) {
    throw new A2AError(CONTENT_TYPE_NOT_SUPPORTED, 'The message needs a text part.', {
      code: 'unsupported_content',
      accepted: ['text/plain'],
    });
  }
  checkParams(
    chatRequestSchema,
    // A contextId the SDK will make up (none given) is a valid session id.
    { session_id: params.message.contextId ?? 'new', message: textOf(params.message) },
    (issue) => (issue.path[0] === 'session_id' ? 'message.contextId' : 'message.parts'),
  );
}
