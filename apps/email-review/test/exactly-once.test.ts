import { startEmulator, type Emulator } from '@repo/llm-emulator';
import request from 'supertest';
import { dropSchema, freshSchema, postgresTestsEnabled } from './support/database.js';
import { BILLING_EMAIL } from './support/emails.js';
import { startInstance, type Instance } from './support/harness.js';

const withPostgres = await postgresTestsEnabled();
const CONCURRENT_APPROVES = 20;

describe('exactly-once send', () => {
  const schema = freshSchema('once');
  let emulator: Emulator;
  const instances: Instance[] = [];

  beforeAll(async () => {
    emulator = await startEmulator();
  });
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.close()));
    await emulator?.close();
    if (withPostgres) await dropSchema(schema);
  });

  /** All requests are on the wire before the first can finish: the mailer takes 100 ms. */
  async function approveConcurrently(apps: Instance[], threadId: string) {
    const urls = await Promise.all(apps.map((app) => app.listen()));
    const answers = await Promise.all(
      Array.from({ length: CONCURRENT_APPROVES }, async (_, i) => {
        const res = await fetch(`${urls[i % urls.length]}/threads/${threadId}/approve`, {
          method: 'POST',
        });
        return [res.status, ((await res.json()) as { code?: string }).code] as const;
      }),
    );
    return answers;
  }

  test('when 20 approves of one thread arrive at once in memory mode, then exactly one sends', async () => {
    const instance = await startInstance({ mode: 'memory', emulator, mailerDelayMs: 100 });
    instances.push(instance);
    const { thread_id } = (
      await request(instance.app).post('/threads').send({ inbound: BILLING_EMAIL })
    ).body;

    const answers = await approveConcurrently([instance], thread_id);

    expect(answers.filter(([status]) => status === 200)).toHaveLength(1);
    expect(answers.filter(([status]) => status === 409)).toHaveLength(CONCURRENT_APPROVES - 1);
    expect(instance.mailerCalls()).toBe(1);
    expect(await instance.persistence.outbox.list(thread_id)).toHaveLength(1);
  });

  (withPostgres ? test : test.skip)(
    'when 20 approves of one thread arrive at once through two instances on one database, then exactly one sends',
    async () => {
      const [first, second] = await Promise.all([
        startInstance({ mode: 'postgres', emulator, schema, mailerDelayMs: 100 }),
        startInstance({ mode: 'postgres', emulator, schema, mailerDelayMs: 100 }),
      ]);
      instances.push(first!, second!);
      const { thread_id } = (
        await request(first!.app).post('/threads').send({ inbound: BILLING_EMAIL })
      ).body;

      const answers = await approveConcurrently([first!, second!], thread_id);

      expect(answers.filter(([status]) => status === 200)).toHaveLength(1);
      const refused = answers.filter(([status]) => status === 409);
      expect(refused).toHaveLength(CONCURRENT_APPROVES - 1);
      expect(
        refused.every(
          ([, code]) => code === 'thread_busy' || code === 'thread_not_awaiting_review',
        ),
      ).toBe(true);
      expect(first!.mailerCalls() + second!.mailerCalls()).toBe(1);
      expect(await first!.persistence.outbox.list(thread_id)).toHaveLength(1);
      expect((await request(second!.app).get(`/threads/${thread_id}`)).body.status).toBe('sent');
    },
  );
});
