import {
  InMemorySessionService,
  isFinalResponse,
  LogLevel,
  Runner,
  setLogLevel,
  stringifyContent,
} from '@google/adk';
import { createRootAgent } from 'helpdesk';
import type { StepTimer } from '../load/step-timer.js';
import type { ChatDriver } from './chat-driver.js';

const APP = 'helpdesk';
const USER = 'bench';

/**
 * The framework alone: the helpdesk's agent tree on ADK's own Runner and InMemorySessionService
 * in the bench's own process, with no HTTP server and none of the service around it (per-session
 * queue, history condensing, registry). What it adds over its model calls is the floor that ADK
 * and @google/genai set for the service. Concurrently it shares the bench's
 * event loop with the load generator, whose own part is a counter and a timer per iteration.
 */
export class InProcessAdkDriver implements ChatDriver {
  private readonly sessions = new InMemorySessionService();
  private readonly runner: Runner;

  constructor(emulatorUrl: string) {
    // ADK logs every event at INFO to the console by default; the services log at warn.
    setLogLevel(LogLevel.WARN);
    const agent = createRootAgent({
      apiKey: 'bench-key',
      // The emulator answers whatever model is named.
      model: 'bench-model',
      baseUrl: emulatorUrl,
      timeoutMs: 30_000,
      maxRetries: 0,
    });
    this.runner = new Runner({ appName: APP, agent, sessionService: this.sessions });
  }

  async chat(sessionKey: string, messages: string[], timer: StepTimer): Promise<void> {
    await this.startSession(sessionKey);
    for (const message of messages) {
      const { reply } = await timer.time('message', () => this.turn(sessionKey, message));
      if (!reply) throw new Error(`empty reply in session ${sessionKey}`);
    }
  }

  async startSession(sessionId: string): Promise<void> {
    await this.sessions.createSession({ appName: APP, userId: USER, sessionId });
  }

  /** One message of a started session: the last final text of the turn and its author. */
  async turn(sessionId: string, text: string): Promise<{ agent: string; reply: string }> {
    let answer = { agent: '', reply: '' };
    const events = this.runner.runAsync({
      userId: USER,
      sessionId,
      newMessage: { role: 'user', parts: [{ text }] },
    });
    for await (const event of events) {
      if (event.errorCode) throw new Error(`model error ${event.errorCode}: ${event.errorMessage}`);
      const reply =
        event.author !== 'user' && isFinalResponse(event) && stringifyContent(event).trim();
      if (reply) answer = { agent: event.author ?? '', reply };
    }
    return answer;
  }

  close(): void {}
}
