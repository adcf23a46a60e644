import { randomUUID } from 'node:crypto';
import type { SendMessageRequest, SendMessageResponse } from '@a2a-js/sdk';
import { JsonClient } from '../net/json-client.js';
import type { StepTimer } from '../load/step-timer.js';
import type { ChatDriver } from './chat-driver.js';

/**
 * The helpdesk as an A2A agent: one JSON-RPC `message/send` per message at POST /a2a, the chat's
 * session as the contextId. The same keep-alive client as HelpdeskDriver's POST /chat, so the
 * two differ only in the protocol.
 */
export class A2aChatDriver implements ChatDriver {
  private readonly client: JsonClient;
  private nextId = 1;

  constructor(baseUrl: string, maxSockets: number) {
    this.client = new JsonClient(baseUrl, maxSockets);
  }

  async chat(sessionKey: string, messages: string[], timer: StepTimer): Promise<void> {
    for (const text of messages) {
      const request: SendMessageRequest = {
        jsonrpc: '2.0',
        id: this.nextId++,
        method: 'message/send',
        params: {
          message: {
            kind: 'message',
            role: 'user',
            messageId: randomUUID(),
            contextId: sessionKey,
            parts: [{ kind: 'text', text }],
          },
        },
      };
      const response = (await timer.time('message', () =>
        this.client.expect('POST', '/a2a', request, [200]),
      )) as SendMessageResponse;
      if ('error' in response) throw new Error(`message/send: ${response.error.message}`);
      const result = response.result;
      if (result.kind !== 'task' || result.status.state !== 'completed') {
        throw new Error(
          `message/send ended ${result.kind === 'task' ? result.status.state : result.kind}`,
        );
      }
    }
  }

  close(): void {
    this.client.close();
  }
}
