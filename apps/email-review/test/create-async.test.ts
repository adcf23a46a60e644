import { startEmulator, type Emulator } from '@repo/llm-emulator';
import {
  dropSchema,
  freshSchema,
  postgresTestsEnabled,
  TEST_DATABASE_URL,
  until,
} from './support/database.js';
import { BILLING_EMAIL } from './support/emails.js';
import { startServer, type ServerProcess } from './support/server-process.js';

const withPostgres = await postgresTestsEnabled();
const describePg = withPostgres ? describe : describe.skip;

interface Thread {
  thread_id: string;
  status: string;
  draft: string | null;
}

async function create(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}/threads`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ inbound: BILLING_EMAIL }),
  });
  return { res, body: (await res.json()) as Thread };
}

const thread = async (url: string, id: string) =>
  (await (await fetch(`${url}/threads/${id}`)).json()) as Thread;

/** The real server process, its create waiting at most 1 s for the draft (the happy path's 201 is every other test's). */
describePg('creation that answers before the draft (service process)', () => {
  const schema = freshSchema('async');
  let emulator: Emulator;
  let server: ServerProcess | undefined;
  let url: string;

  beforeAll(async () => {
    emulator = await startEmulator();
    const started = await startServer({
      LLM_A_API_KEY: 'test-key',
      LLM_A_BASE_URL: `${emulator.url}/v1`,
      DATABASE_URL: TEST_DATABASE_URL,
      DATABASE_SCHEMA: schema,
      CREATE_WAIT_MS: '1000',
    });
    server = started.process;
    url = started.url;
  });
  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await server?.exited;
    await emulator?.close();
    await dropSchema(schema);
  });

  test('when a create says Prefer: respond-async, then it answers 202 with Location and the thread drafting, and the draft follows with no other request', async () => {
    // Held well past the answer, so the 202 cannot be a draft that happened to be quick.
    emulator.faults.add({ provider: 'openai', kind: 'delay', delayMs: 1_500, count: 1 });

    const { res, body } = await create(url, { Prefer: 'respond-async' });

    expect(res.status).toBe(202);
    expect(res.headers.get('location')).toBe(`/threads/${body.thread_id}`);
    expect(res.headers.get('preference-applied')).toBe('respond-async');
    expect(body).toMatchObject({ status: 'drafting', draft: null });
    await until(
      async () => (await thread(url, body.thread_id)).status === 'awaiting_review',
      'the draft',
    );
    expect((await thread(url, body.thread_id)).draft).toEqual(expect.any(String));
  });

  test('when the model takes longer than CREATE_WAIT_MS, then the create answers 202 with the thread drafting (not a 5xx), and the draft follows', async () => {
    emulator.faults.add({ provider: 'openai', kind: 'delay', delayMs: 4_000, count: 1 });

    const { res, body } = await create(url);

    expect(res.status).toBe(202);
    expect(res.headers.get('location')).toBe(`/threads/${body.thread_id}`);
    expect(body.status).toBe('drafting');
    await until(
      async () => (await thread(url, body.thread_id)).status === 'awaiting_review',
      'the draft',
    );
  });
});
