import { JsonClient } from '../net/json-client.js';
import type { StepTimer } from '../load/step-timer.js';
import type { ChatDriver } from './chat-driver.js';

interface AdkEvent {
  author?: string;
  errorCode?: string;
  errorMessage?: string;
  content?: { parts?: Array<{ text?: string }> };
}

const USER_ID = 'bench';

/** The same agent tree behind `adk api_server`: create a session, then POST /run per message. */
export class AdkChatDriver implements ChatDriver {
  private readonly client: JsonClient;

  constructor(
    baseUrl: string,
    maxSockets: number,
    private readonly appName: string,
  ) {
    this.client = new JsonClient(baseUrl, maxSockets);
  }

  async chat(_sessionKey: string, messages: string[], timer: StepTimer): Promise<void> {
    const session = (await timer.time('session', () =>
      this.client.expect('POST', `/apps/${this.appName}/users/${USER_ID}/sessions`, {}, [200]),
    )) as { id: string };
    for (const text of messages) {
      const events = (await timer.time('message', () =>
        this.client.expect(
          'POST',
          '/run',
          {
            appName: this.appName,
            userId: USER_ID,
            sessionId: session.id,
            newMessage: { role: 'user', parts: [{ text }] },
          },
          [200],
        ),
      )) as AdkEvent[];
      const failure = events.find((e) => e.errorCode);
      if (failure)
        throw new Error(`run failed: ${failure.errorCode} ${failure.errorMessage ?? ''}`);
      const replied = events.some((e) => e.content?.parts?.some((p) => p.text));
      if (!replied) throw new Error('run answered without any text');
    }
  }

  close(): void {
    this.client.close();
  }
}
