import { MemoryOutbox } from '../src/outbox/memory-outbox.js';
import { WebhookReceiver } from '../src/receiver/webhook-receiver.js';
import { testDeps } from './outbox-support.js';

const event = (type: string, subject = 'thr_1', n = 0) => ({ type, subject, data: { n } });

async function settled(outbox: MemoryOutbox, status: 'delivered' | 'failed', count = 1) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = await outbox.list({ status, limit: 100 });
    if (found.length >= count) return found;
    if (Date.now() > deadline) throw new Error(`no ${status} delivery in time`);
    await new Promise((done) => setTimeout(done, 20));
  }
}

describe('memory outbox against a real receiver verifying with standardwebhooks', () => {
  let receiver: WebhookReceiver;
  let outbox: MemoryOutbox | undefined;
  beforeEach(async () => {
    receiver = await WebhookReceiver.start();
  });
  afterEach(async () => {
    await outbox?.close();
    await receiver.close();
  });

  it('when the receiver answers 500, 500, then 200, then the delivery is delivered on the third attempt', async () => {
    receiver.script = [500, 500, 200];
    outbox = new MemoryOutbox(testDeps([{ url: receiver.url, secret: receiver.secret }]));
    await outbox.publish([event('thread.approved')]);
    const [delivery] = await settled(outbox, 'delivered');
    expect(delivery).toMatchObject({ attempts: 3, last_status: 200 });
    expect(receiver.requests).toHaveLength(3);
    expect(new Set(receiver.requests).size).toBe(1);
    expect(receiver.received).toEqual([
      expect.objectContaining({ type: 'thread.approved', attempt: 3, data: { n: 0 } }),
    ]);
    expect(receiver.rejected).toBe(0);
  });

  it('when the receiver answers 410, then the delivery fails at once with no retry', async () => {
    receiver.script = [410];
    outbox = new MemoryOutbox(testDeps([{ url: receiver.url, secret: receiver.secret }]));
    await outbox.publish([event('thread.approved')]);
    const [delivery] = await settled(outbox, 'failed');
    expect(delivery).toMatchObject({ attempts: 1, last_status: 410, last_error: 'HTTP 410' });
    await new Promise((done) => setTimeout(done, 300));
    expect(receiver.requests).toHaveLength(1);
  });

  it('when an endpoint hangs, then its attempt times out and another endpoint is delivered meanwhile', async () => {
    const other = await WebhookReceiver.start();
    try {
      receiver.script = ['hang'];
      outbox = new MemoryOutbox(
        testDeps(
          [
            { url: receiver.url, secret: receiver.secret, name: 'hangs' },
            { url: other.url, secret: other.secret, name: 'fine' },
          ],
          { timeoutMs: 1_500 },
        ),
      );
      await outbox.publish([event('thread.approved')]);
      await other.until(() => other.received.length === 1);
      // The hanging endpoint still holds its request: the other was delivered meanwhile.
      expect(receiver.received).toHaveLength(0);
      const [delivery] = await settled(outbox, 'delivered');
      expect(delivery!.endpoint).toBe('fine');
      // The hung attempt timed out; the second attempt of the same delivery went through.
      const delivered = await settled(outbox, 'delivered', 2);
      const hung = delivered.find((d) => d.endpoint === 'hangs');
      expect(hung).toMatchObject({ status: 'delivered', attempts: 2 });
      expect(receiver.requests).toEqual([hung!.id, hung!.id]);
    } finally {
      await other.close();
    }
  });

  it('when a target is on loopback and private targets are not allowed, then nothing is sent and the delivery fails', async () => {
    outbox = new MemoryOutbox(
      testDeps([{ url: receiver.url, secret: receiver.secret }], { allowPrivate: false }),
    );
    await outbox.publish([event('thread.approved')]);
    const [delivery] = await settled(outbox, 'failed');
    expect(delivery!.last_error).toMatch(/127\.0\.0\.1.*loopback, private or link-local/);
    expect(receiver.requests).toHaveLength(0);
  });

  it('when the first event of a subject needs retries, then the later ones wait and arrive in order', async () => {
    receiver.script = [503, 503];
    outbox = new MemoryOutbox(testDeps([{ url: receiver.url, secret: receiver.secret }]));
    await outbox.publish([0, 1, 2].map((n) => event('thread.updated', 'thr_9', n)));
    await receiver.until(() => receiver.received.length === 3);
    expect(receiver.received.map((hook) => hook.data['n'])).toEqual([0, 1, 2]);
  });

  it('when a failed delivery is retried, then it is sent again with the same webhook-id', async () => {
    receiver.script = [410];
    outbox = new MemoryOutbox(testDeps([{ url: receiver.url, secret: receiver.secret }]));
    await outbox.publish([event('thread.rejected')]);
    const [failed] = await settled(outbox, 'failed');
    expect(await outbox.retry(failed!.id)).toMatchObject({
      retried: true,
      delivery: { status: 'pending' },
    });
    expect(await outbox.retry(failed!.id)).toMatchObject({ retried: false });
    await receiver.until(() => receiver.received.length === 1);
    expect(receiver.received[0]!.id).toBe(failed!.id);
  });
});
