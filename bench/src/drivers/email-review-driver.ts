import { JsonClient } from '../net/json-client.js';
import type { StepTimer } from '../load/step-timer.js';
import type { EmailDriver } from './email-driver.js';

interface ThreadBody {
  thread_id: string;
  status: string;
  draft: string | null;
}

/** The project's email-review service: POST /threads → GET /threads/{id} → POST /threads/{id}/approve. */
export class EmailReviewDriver implements EmailDriver {
  private readonly client: JsonClient;

  constructor(baseUrl: string, maxSockets: number) {
    this.client = new JsonClient(baseUrl, maxSockets);
  }

  async lifecycle(inbound: string, timer: StepTimer): Promise<void> {
    const created = (await timer.time('create', () =>
      this.client.expect('POST', '/threads', { inbound }, [201]),
    )) as ThreadBody;
    if (created.status !== 'awaiting_review' || !created.draft) {
      throw new Error(`create answered status ${created.status} without a draft`);
    }
    const path = `/threads/${encodeURIComponent(created.thread_id)}`;
    await timer.time('get', () => this.client.expect('GET', path, undefined, [200]));
    const approved = (await timer.time('approve', () =>
      this.client.expect('POST', `${path}/approve`, {}, [200]),
    )) as ThreadBody;
    if (approved.status !== 'sent') throw new Error(`approve answered status ${approved.status}`);
  }

  close(): void {
    this.client.close();
  }
}
