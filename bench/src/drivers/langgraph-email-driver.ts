import { JsonClient } from '../net/json-client.js';
import type { StepTimer } from '../load/step-timer.js';
import type { EmailDriver } from './email-driver.js';

interface StateBody {
  values: Record<string, unknown>;
  next: string[];
}

/**
 * The same compiled graph behind the LangGraph dev server, driven the way its docs show:
 * create = POST /threads + POST /threads/{id}/runs/wait (stops before `send`),
 * get = GET /threads/{id}/state, approve = a resume run with null input.
 */
export class LanggraphEmailDriver implements EmailDriver {
  private readonly client: JsonClient;

  constructor(
    baseUrl: string,
    maxSockets: number,
    private readonly assistantId: string,
  ) {
    this.client = new JsonClient(baseUrl, maxSockets);
  }

  async lifecycle(inbound: string, timer: StepTimer): Promise<void> {
    const threadId = await timer.time('create', async () => {
      const thread = (await this.client.expect('POST', '/threads', {}, [200])) as {
        thread_id: string;
      };
      const run = (await this.client.expect(
        'POST',
        `/threads/${thread.thread_id}/runs/wait`,
        { assistant_id: this.assistantId, input: { inbound }, interrupt_before: ['send'] },
        [200],
      )) as Record<string, unknown>;
      if (run.__error__) throw new Error(`create run failed: ${JSON.stringify(run.__error__)}`);
      return thread.thread_id;
    });
    const state = (await timer.time('get', () =>
      this.client.expect('GET', `/threads/${threadId}/state`, undefined, [200]),
    )) as StateBody;
    if (!state.next.includes('send') || !state.values.reply) {
      throw new Error(
        `thread is not paused before send with a draft (next: ${JSON.stringify(state.next)})`,
      );
    }
    const final = (await timer.time('approve', () =>
      this.client.expect(
        'POST',
        `/threads/${threadId}/runs/wait`,
        { assistant_id: this.assistantId, input: null },
        [200],
      ),
    )) as Record<string, unknown>;
    if (final.__error__ || !final.sent)
      throw new Error(`resume did not send: ${JSON.stringify(final).slice(0, 200)}`);
  }

  close(): void {
    this.client.close();
  }
}
