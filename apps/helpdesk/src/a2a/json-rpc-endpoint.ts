import {
  A2AError,
  ServerCallContext,
  UnauthenticatedUser,
  type A2ARequestHandler,
} from '@a2a-js/sdk/server';
import { currentLogger, EventStream, requestContext, type Logger } from '@repo/http-kit';
import { Router, type ErrorRequestHandler, type Response } from 'express';
import { z } from 'zod';
import { A2A_PATH } from './agent-card.js';

type RpcId = string | number | null;
type Call = (handler: A2ARequestHandler, params: never, context: ServerCallContext) => unknown;

/** The methods answered with one JSON-RPC response. */
const CALLS: Record<string, Call> = {
  'message/send': (h, p, c) => h.sendMessage(p, c),
  'tasks/get': (h, p, c) => h.getTask(p, c),
  'tasks/cancel': (h, p, c) => h.cancelTask(p, c),
  'tasks/pushNotificationConfig/set': (h, p, c) => h.setTaskPushNotificationConfig(p, c),
  'tasks/pushNotificationConfig/get': (h, p, c) => h.getTaskPushNotificationConfig(p, c),
  'tasks/pushNotificationConfig/list': (h, p, c) => h.listTaskPushNotificationConfigs(p, c),
  'tasks/pushNotificationConfig/delete': async (h, p, c) => {
    await h.deleteTaskPushNotificationConfig(p, c);
    return null;
  },
  'agent/getAuthenticatedExtendedCard': (h, _p, c) => h.getAuthenticatedExtendedAgentCard(c),
};

/** The methods answered as an event stream (SSE), one JSON-RPC response per event. */
const STREAMS: Record<string, (...args: Parameters<Call>) => AsyncGenerator<unknown>> = {
  'message/stream': (h, p, c) => h.sendMessageStream(p, c),
  'tasks/resubscribe': (h, p, c) => h.resubscribe(p, c),
};

/** JSON-RPC 2.0's request object, as the SDK's transport checks it. */
const rpcRequestSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.string(), z.number().int(), z.null()]).optional(),
  method: z.string().min(1),
  params: z.unknown().optional(),
});

/** A caller's value as a log field: no control, bidi or line separators, at most 64 characters. */
function logSafe(value: unknown): string {
  return String(value)
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, ' ')
    .slice(0, 64);
}

/** The id a response carries: the request's when it is one JSON-RPC allows, else null. */
function idOf(body: unknown): RpcId {
  const id = (body as { id?: unknown } | null)?.id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)) ? id : null;
}

const errorResponse = (id: RpcId, error: A2AError) => ({
  jsonrpc: '2.0' as const,
  id,
  error: error.toJSONRPCError(),
});

/** The A2A error a call ends with, logged: a refusal at info, else at error (cause not answered). */
function answerTo(error: unknown, call: { id: RpcId; method: string }, fallback: Logger): A2AError {
  const log = currentLogger(fallback);
  const fields = {
    request_id: requestContext.getStore()?.requestId,
    rpc_id: logSafe(call.id),
    rpc_method: logSafe(call.method),
  };
  if (error instanceof A2AError && error.code !== -32603) {
    log.info({ ...fields, rpc_error: error.code }, 'A2A call refused');
    return error;
  }
  log.error({ ...fields, rpc_error: -32603, err: error }, 'A2A call failed');
  return A2AError.internalError('An unexpected error occurred.');
}

async function stream(
  res: Response,
  events: AsyncGenerator<unknown>,
  call: { id: RpcId; method: string },
  logger: Logger,
): Promise<void> {
  const sse = new EventStream(res);
  // Opened now: the first event may wait for a model call.
  sse.open();
  try {
    // A client that leaves is not followed: the turn's events still reach the task store.
    for await (const result of events) sse.send('message', { jsonrpc: '2.0', id: call.id, result });
  } catch (error) {
    sse.send('error', errorResponse(call.id, answerTo(error, call, logger)));
  } finally {
    sse.end();
  }
}

/**
 * POST /a2a: A2A's JSON-RPC binding over the SDK's request handler. Not the SDK's own express
 * handler, which writes failures to stderr (the caller's id raw in them) and answers unexpected
 * errors with their message. Same protocol: a batch or malformed request -32600, an unknown method
 * -32601, non-object params -32602; streams are SSE whose last event may be an `error`.
 */
export function jsonRpcEndpoint(handler: A2ARequestHandler, logger: Logger): Router {
  const router = Router();
  router.post('/', async (req, res) => {
    const body: unknown = req.body;
    const parsed = rpcRequestSchema.safeParse(body);
    const call = { id: idOf(body), method: parsed.success ? parsed.data.method : '(invalid)' };
    const context = new ServerCallContext(undefined, new UnauthenticatedUser());
    const refuse = (error: unknown) =>
      res.json(errorResponse(call.id, answerTo(error, call, logger)));
    if (!parsed.success) return refuse(A2AError.invalidRequest('Invalid JSON-RPC Request.'));
    const { method, params } = parsed.data;
    const run = CALLS[method];
    const open = STREAMS[method];
    if (!run && !open) return refuse(A2AError.methodNotFound(method));
    const paramsObject = typeof params === 'object' && params !== null && !Array.isArray(params);
    if (!paramsObject && method !== 'agent/getAuthenticatedExtendedCard')
      return refuse(A2AError.invalidParams('The params must be an object.'));
    if (open) return stream(res, open(handler, params as never, context), call, logger);
    try {
      res.json({
        jsonrpc: '2.0',
        id: call.id,
        result: await run!(handler, params as never, context),
      });
    } catch (error) {
      refuse(error);
    }
  });
  return router;
}

/** A body the JSON parser refused on POST /a2a: JSON-RPC's parse error (-32700, id null). */
export const a2aParseErrors: ErrorRequestHandler = (error: { type?: unknown }, req, res, next) => {
  if (req.path !== A2A_PATH || error?.type !== 'entity.parse.failed') return next(error);
  res.status(400).json(errorResponse(null, A2AError.parseError('Invalid JSON payload.')));
};
