import { startEmulator, type Emulator } from '@repo/llm-emulator';
import { dropSchema, freshSchema, postgresTestsEnabled, until } from './support/database.js';
import { BILLING_EMAIL, OUTAGE_EMAIL } from './support/emails.js';
import { startInstance, type Instance } from './support/harness.js';

const withPostgres = await postgresTestsEnabled();
const describePg = withPostgres ? describe : describe.skip;
const HANGING = 20;
const REVIEWED = 20;

async function post(url: string, body: unknown): Promise<{ status: number }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await res.arrayBuffer();
  return { status: res.status };
}

describePg('a slow model', () => {
  const schema = freshSchema('slow');
  let emulator: Emulator;
  let instance: Instance;

  beforeAll(async () => {
    emulator = await startEmulator();
    // The pools' default size (10), as in production: fewer connections than hanging creates.
    instance = await startInstance({ mode: 'postgres', emulator, schema, maxRetries: 0 });
  });
  afterAll(async () => {
    await instance?.close();
    await emulator?.close();
    await dropSchema(schema);
  });

  test('when 20 creates hang on the model, then approve, edit and reject of 20 other threads each answer while the creates still hang, and the delivery invariant holds', async () => {
    const base = await instance.listen();
    const ids: string[] = [];
    for (let i = 0; i < REVIEWED; i += 1) {
      const res = await fetch(`${base}/threads`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        // A sender, so that an approval queues its reply (none: `no_recipient`, nothing queued).
        body: JSON.stringify({
          inbound: i % 2 ? BILLING_EMAIL : OUTAGE_EMAIL,
          from: 'ann@example.com',
        }),
      });
      expect(res.status).toBe(201);
      ids.push(((await res.json()) as { thread_id: string }).thread_id);
    }
    emulator.requests.clear();
    emulator.faults.add({ provider: 'openai', kind: 'hang', count: HANGING });
    const creates = Array.from({ length: HANGING }, () =>
      post(`${base}/threads`, { inbound: BILLING_EMAIL, from: 'ann@example.com' }),
    );
    await until(
      () => emulator.requests.list().filter((r) => r.status === 0).length === HANGING,
      'every create to hang on the model',
    );

    const actions = ids.map((id, i) =>
      i % 3 === 0
        ? post(`${base}/threads/${id}/approve`, {})
        : i % 3 === 1
          ? post(`${base}/threads/${id}/edit`, { draft: 'Dear customer, we are on it.' })
          : post(`${base}/threads/${id}/reject`, {}),
    );
    const answers = await Promise.all(actions);

    // Not queued behind the hung model calls: every decision answered while all of them still hang
    // (how fast is the bench's question, not a test's).
    expect(answers.map((a) => a.status)).toEqual(ids.map(() => 200));
    expect(emulator.requests.list().filter((r) => r.status === 0)).toHaveLength(HANGING);
    for (const [i, id] of ids.entries()) {
      const thread = await instance.persistence.threads.get(id);
      const delivery = await instance.persistence.deliveries.get(id);
      const expected = ['sent', 'awaiting_review', 'rejected'][i % 3];
      expect(thread?.status).toBe(expected);
      // Sent with its message queued (or delivered), or not sent with nothing queued.
      if (expected === 'sent') expect(delivery?.status).toMatch(/queued|delivered/);
      else expect(delivery).toBeUndefined();
    }
    // The hanging creates end (the model comes back) with their threads reviewable or failed.
    emulator.faults.clear();
    await emulator.close();
    const created = await Promise.all(creates);
    expect(created.every((c) => [201, 502, 503].includes(c.status))).toBe(true);
    emulator = await startEmulator();
  }, 90_000);
});
