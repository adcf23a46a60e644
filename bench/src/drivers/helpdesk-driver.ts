import { JsonClient } from '../net/json-client.js';
import type { StepTimer } from '../load/step-timer.js';
import type { ChatDriver } from './chat-driver.js';

interface ChatBody {
  agent: string;
  reply: string;
}

/** The project's helpdesk: POST /chat per message; the first message creates the session. */
export class HelpdeskDriver implements ChatDriver {
  private readonly client: JsonClient;

  constructor(baseUrl: string, maxSockets: number) {
    this.client = new JsonClient(baseUrl, maxSockets);
  }

  async chat(sessionKey: string, messages: string[], timer: StepTimer): Promise<void> {
    for (const message of messages) {
      const body = (await timer.time('message', () =>
        this.client.expect('POST', '/chat', { session_id: sessionKey, message }, [200]),
      )) as ChatBody;
      if (!body.reply) throw new Error(`empty reply from ${body.agent}`);
    }
  }

  close(): void {
    this.client.close();
  }
}
