import { startEmulator, type Emulator } from '@repo/llm-emulator';
import {
  dropSchema,
  freshSchema,
  postgresTestsEnabled,
  TEST_DATABASE_URL,
  until,
} from './support/database.js';
import { startServer, type ServerProcess } from './support/server-process.js';
import { SmtpSink } from './support/smtp-sink.js';

const withPostgres = await postgresTestsEnabled();
const describePg = withPostgres ? describe : describe.skip;

const THREADS = 12;

async function post(url: string, body?: unknown) {
  const res = await fetch(url, {
    method: 'POST',
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/**
 * Two real service processes on one database, each given the same decisions on the same threads
 * at the same moment: an approve, an edit and a reject through each instance (six requests).
 */
describePg('two instances deciding one thread at once (service processes)', () => {
  const schema = freshSchema('race');
  let emulator: Emulator;
  let sink: SmtpSink;
  const servers: ServerProcess[] = [];
  const urls: string[] = [];

  beforeAll(async () => {
    emulator = await startEmulator();
    sink = await SmtpSink.start();
    const env = {
      LLM_A_API_KEY: 'test-key',
      LLM_A_BASE_URL: `${emulator.url}/v1`,
      DATABASE_URL: TEST_DATABASE_URL,
      DATABASE_SCHEMA: schema,
      SMTP_URL: sink.url,
      MAIL_FROM: 'Support <support@shop.test>',
    };
    // Together: the set-up runs under an advisory lock.
    for (const started of await Promise.all([startServer(env), startServer(env)])) {
      servers.push(started.process);
      urls.push(started.url);
    }
  }, 90_000);
  afterAll(async () => {
    for (const server of servers) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
    await sink?.stop();
    await emulator?.close();
    await dropSchema(schema);
  });

  test('when approve, edit and reject of one thread race through two instances, then exactly one answers 200, the rest 409/412, and no reply is delivered twice', async () => {
    const ids: string[] = [];
    for (let i = 0; i < THREADS; i += 1) {
      const created = await post(`${urls[i % 2]}/threads`, {
        inbound: `Please refund the double charge on invoice INV-${i}.`,
        from: `customer${i}@example.com`,
      });
      expect(created.status).toBe(201);
      ids.push(created.body.thread_id as string);
    }

    const outcomes = await Promise.all(
      ids.map(async (id) => {
        const decisions = urls.flatMap((url) => [
          () => post(`${url}/threads/${id}/approve`, { revision: 1 }),
          () => post(`${url}/threads/${id}/edit`, { draft: `Edited through ${url}.`, revision: 1 }),
          () => post(`${url}/threads/${id}/reject`, { revision: 1 }),
        ]);
        const answers = await Promise.all(decisions.map((decide) => decide()));
        return { id, answers: answers.map((answer) => [answer.status, answer.body.code] as const) };
      }),
    );

    for (const { answers } of outcomes) {
      expect(answers.filter(([status]) => status === 200)).toHaveLength(1);
      for (const [status, code] of answers.filter(([status]) => status !== 200)) {
        expect([409, 412]).toContain(status);
        expect(['thread_not_awaiting_review', 'revision_mismatch']).toContain(code);
      }
    }
    const approvedIds = outcomes
      .filter(({ answers }) => answers[0]![0] === 200 || answers[3]![0] === 200)
      .map(({ id }) => id);
    await until(() => sink.received.length >= approvedIds.length, 'the approved replies');
    // Time for a second delivery of any of them, were there one.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const deliveredTo = sink.received.map((mail) => mail.envelope.to[0]);
    expect(deliveredTo).toHaveLength(approvedIds.length);
    expect(new Set(deliveredTo).size).toBe(deliveredTo.length);
    // Each thread is in the state its winning decision left, with one decision in its history.
    for (const { id, answers } of outcomes) {
      const winner = answers.findIndex(([status]) => status === 200) % 3;
      const thread = (await (await fetch(`${urls[0]}/threads/${id}`)).json()) as {
        status: string;
        revision: number;
      };
      expect(thread.status).toBe(['sent', 'awaiting_review', 'rejected'][winner]);
      const history = (await (await fetch(`${urls[1]}/threads/${id}/history`)).json()) as {
        events: { type: string }[];
      };
      const decided = history.events.filter((event) =>
        ['approved', 'edited', 'rejected'].includes(event.type),
      );
      expect(decided).toHaveLength(1);
    }
  }, 120_000);
});
