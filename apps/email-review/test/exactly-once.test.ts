import { startEmulator, type Emulator } from '@repo/llm-emulator';
import request from 'supertest';
import { dropSchema, freshSchema, postgresTestsEnabled, until } from './support/database.js';
import { BILLING_EMAIL } from './support/emails.js';
import { ApprovalGate, startInstance, TestTransport, type Instance } from './support/harness.js';

const withPostgres = await postgresTestsEnabled();
const CONCURRENT_APPROVES = 20;

describe('exactly-once approval', () => {
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

  /**
   * Sends 20 approves at once. The first to commit is held (before it answers) until all the others
   * have been answered, so each of them meets the committed decision.
   */
  async function approveConcurrently(apps: Instance[], gate: ApprovalGate, threadId: string) {
    const hold = gate.holdNext();
    const urls = await Promise.all(apps.map((app) => app.listen()));
    let answered = 0;
    let othersAnswered!: () => void;
    const allButOne = new Promise<void>((resolve) => (othersAnswered = resolve));
    const answers = Promise.all(
      Array.from({ length: CONCURRENT_APPROVES }, async (_, i) => {
        const res = await fetch(`${urls[i % urls.length]}/threads/${threadId}/approve`, {
          method: 'POST',
        });
        const answer = [res.status, ((await res.json()) as { code?: string }).code] as const;
        answered += 1;
        if (answered === CONCURRENT_APPROVES - 1) othersAnswered();
        return answer;
      }),
    );
    await Promise.all([hold.entered, allButOne]);
    hold.release();
    return answers;
  }

  function expectOneSentRestBusy(answers: ReadonlyArray<readonly [number, string | undefined]>) {
    expect(answers.filter(([status]) => status === 200)).toHaveLength(1);
    const refused = answers.filter(([status]) => status === 409);
    expect(refused).toHaveLength(CONCURRENT_APPROVES - 1);
    // Refused by the status check or the compare-and-set while the winner was still answering.
    expect(refused.every(([, code]) => code === 'thread_not_awaiting_review')).toBe(true);
  }

  test('when 20 approves of one thread arrive at once in memory mode, then exactly one is delivered', async () => {
    const instance = await startInstance({ mode: 'memory', emulator });
    instances.push(instance);
    const { thread_id } = (
      await request(instance.app)
        .post('/threads')
        .send({ inbound: BILLING_EMAIL, from: 'ann@example.com' })
    ).body;

    const answers = await approveConcurrently([instance], instance.gate, thread_id);

    expectOneSentRestBusy(answers);
    await until(() => instance.transport.delivered.length > 0, 'the delivery');
    expect(instance.transport.delivered).toHaveLength(1);
  });

  (withPostgres ? test : test.skip)(
    'when 20 approves of one thread arrive at once through two instances on one database, then exactly one is delivered',
    async () => {
      const transport = new TestTransport();
      const gate = new ApprovalGate();
      const [first, second] = await Promise.all([
        startInstance({ mode: 'postgres', emulator, schema, transport, gate }),
        startInstance({ mode: 'postgres', emulator, schema, transport, gate }),
      ]);
      instances.push(first!, second!);
      const { thread_id } = (
        await request(first!.app)
          .post('/threads')
          .send({ inbound: BILLING_EMAIL, from: 'ann@example.com' })
      ).body;

      const answers = await approveConcurrently([first!, second!], gate, thread_id);

      expectOneSentRestBusy(answers);
      await until(
        async () => (await first!.persistence.deliveries.get(thread_id))?.status === 'delivered',
        'the delivery',
      );
      expect(transport.delivered).toHaveLength(1);
      expect((await request(second!.app).get(`/threads/${thread_id}`)).body.status).toBe('sent');
      // Their workers would take the next test's jobs.
      await Promise.all(instances.splice(0).map((instance) => instance.close()));
    },
  );
});
