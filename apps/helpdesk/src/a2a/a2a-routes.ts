import type { AgentCard, MessageSendParams } from '@a2a-js/sdk';
import { A2AError, DefaultRequestHandler, type ServerCallContext } from '@a2a-js/sdk/server';
import { jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import type { Logger } from '@repo/http-kit';
import { Router, type Request } from 'express';
import type { ChatService } from '../chat/chat-service.js';
import { A2A_PATH, AGENT_CARD_PATH, helpdeskAgentCard } from './agent-card.js';
import { BoundedTaskStore } from './bounded-task-store.js';
import { ChatTurnExecutor } from './chat-turn-executor.js';
import { checkMessage } from './message-input.js';

/**
 * The SDK's request handler, with each message checked as POST /chat checks it before a task
 * exists, and streamed messages marked so that only their turns stream (the executor's
 * `streamedMessages`).
 */
class CheckedRequestHandler extends DefaultRequestHandler {
  constructor(
    card: AgentCard,
    private readonly executor: ChatTurnExecutor,
  ) {
    super(card, new BoundedTaskStore(), executor);
  }

  /**
   * The message as POST /chat checks it; and one that names a task whose turn has not ended is
   * refused: the SDK would hand it that task's event bus, and the two turns' events would mix.
   */
  private check(params: MessageSendParams): void {
    checkMessage(params);
    const taskId = params.message.taskId;
    if (taskId && this.executor.isActive(taskId))
      throw A2AError.invalidRequest(
        `Task ${taskId} has a turn that has not ended: send the next message once it has.`,
        { code: 'task_busy' },
      );
  }

  override sendMessage(params: MessageSendParams, context?: ServerCallContext) {
    this.check(params);
    return super.sendMessage(params, context);
  }

  override async *sendMessageStream(params: MessageSendParams, context?: ServerCallContext) {
    this.check(params);
    this.executor.streamedMessages.add(params.message.messageId);
    try {
      yield* super.sendMessageStream(params, context);
    } finally {
      // Normally taken by the executor; left only when the SDK refused the message first.
      this.executor.streamedMessages.delete(params.message.messageId);
    }
  }
}

export interface A2aOptions {
  chat: ChatService;
  logger: Logger;
  version: string;
  /** Auth is on: the card declares the bearer scheme (the app's auth middleware enforces it). */
  auth: boolean;
  /**
   * The base URL the card advertises (PUBLIC_URL); default: the address the service listens on,
   * as the card's connection reached it.
   */
  publicUrl?: string;
}

/**
 * Where the service listens, from the connection's own end: never from a header the caller writes
 * (Host, X-Forwarded-*), or any caller could make the card send agents (and their tokens) elsewhere.
 */
function listeningUrlOf(req: Request): string {
  const address = (req.socket.localAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  const host = address.includes(':') ? `[${address}]` : address;
  return `http://${host}:${req.socket.localPort}`;
}

/**
 * helpdesk as an A2A agent (protocol 0.3, @a2a-js/sdk's JSON-RPC transport): the agent card at
 * /.well-known/agent-card.json (open, as discovery needs) and message/send, message/stream,
 * tasks/get and tasks/cancel at POST /a2a (behind the API's auth). Tasks are kept in this
 * process's memory; the sessions they run on are the chat service's.
 */
export function a2aRoutes(options: A2aOptions): Router {
  const cardOf = (req: Request) =>
    helpdeskAgentCard({
      baseUrl: options.publicUrl ?? listeningUrlOf(req),
      version: options.version,
      auth: options.auth,
    });
  const handler = new CheckedRequestHandler(
    // The card the SDK's handler holds is only read for its capabilities and extensions.
    helpdeskAgentCard({
      baseUrl: options.publicUrl ?? '',
      version: options.version,
      auth: options.auth,
    }),
    new ChatTurnExecutor(options.chat, options.logger),
  );
  const router = Router();
  router.get(AGENT_CARD_PATH, (req, res) => {
    res.json(cardOf(req));
  });
  router.use(
    A2A_PATH,
    jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }),
  );
  return router;
}
