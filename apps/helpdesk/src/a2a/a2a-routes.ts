import type { Logger } from '@repo/http-kit';
import { Router, type Request } from 'express';
import type { ChatService } from '../chat/chat-service.js';
import {
  A2A_PATH,
  AGENT_CARD_PATH,
  helpdeskAgentCard,
  type AgentCardOptions,
} from './agent-card.js';
import { BoundedTaskStore } from './bounded-task-store.js';
import { ChatTurnExecutor } from './chat-turn-executor.js';
import { CheckedRequestHandler } from './checked-request-handler.js';
import { jsonRpcEndpoint } from './json-rpc-endpoint.js';

interface A2aOptions extends Omit<AgentCardOptions, 'baseUrl'> {
  chat: ChatService;
  logger: Logger;
  /** The base URL the card advertises (PUBLIC_URL); default: where the connection reached us. */
  publicUrl?: string;
}

/** Where the service listens, from the connection: never a header the caller writes (Host). */
function listeningUrlOf(req: Request): string {
  const address = (req.socket.localAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  const host = address.includes(':') ? `[${address}]` : address;
  return `http://${host}:${req.socket.localPort}`;
}

/**
 * helpdesk as an A2A agent (protocol 0.3, JSON-RPC): the agent card (open, as discovery needs) and
 * POST /a2a (behind the API's auth). Tasks live in this process's memory.
 */
export function a2aRoutes(options: A2aOptions): Router {
  const card = (baseUrl: string) =>
    helpdeskAgentCard({ baseUrl, version: options.version, auth: options.auth });
  const handler = new CheckedRequestHandler(
    // The card the SDK's handler holds is only read for its capabilities and extensions.
    card(options.publicUrl ?? ''),
    new BoundedTaskStore(),
    new ChatTurnExecutor(options.chat, options.logger),
  );
  const router = Router();
  router.get(AGENT_CARD_PATH, (req, res) => {
    res.json(card(options.publicUrl ?? listeningUrlOf(req)));
  });
  router.use(A2A_PATH, jsonRpcEndpoint(handler, options.logger));
  return router;
}
