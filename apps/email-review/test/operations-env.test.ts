import { startEmulator, type Emulator } from '@repo/llm-emulator';
import { startServer, spawnServer, type ServerProcess } from './support/server-process.js';

const TOKEN = 'operations-env-token';

describe('the operations settings of the built service', () => {
  let emulator: Emulator;
  let llmEnv: Record<string, string>;
  const started: ServerProcess[] = [];

  beforeAll(async () => {
    emulator = await startEmulator();
    llmEnv = { LLM_A_API_KEY: 'test-key', LLM_A_BASE_URL: `${emulator.url}/v1` };
  });
  afterAll(async () => {
    for (const server of started) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
    await emulator?.close();
  });

  test('when API_TOKEN is set, then /metrics needs it like the API', async () => {
    const { process: server, url } = await startServer({ ...llmEnv, API_TOKEN: TOKEN });
    started.push(server);

    expect((await fetch(`${url}/metrics`)).status).toBe(401);
    const scraped = await fetch(`${url}/metrics`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain('email_review_threads{status="awaiting_review"} 0');
  });

  test('when METRICS_PUBLIC=true, then /metrics answers without the token and the API still needs it', async () => {
    const { process: server, url } = await startServer({
      ...llmEnv,
      API_TOKEN: TOKEN,
      METRICS_PUBLIC: 'true',
    });
    started.push(server);

    expect((await fetch(`${url}/metrics`)).status).toBe(200);
    expect((await fetch(`${url}/threads`)).status).toBe(401);
  });

  test('when THREAD_RETENTION_DAYS is not a whole number of days, then start-up fails naming it', async () => {
    const server = spawnServer({ ...llmEnv, THREAD_RETENTION_DAYS: 'forever' });

    const { code } = await server.exited;

    expect(code).toBe(1);
    expect(server.stderr()).toContain('THREAD_RETENTION_DAYS');
  });

  test('when THREAD_RETENTION_UNSENT_DAYS is set without THREAD_RETENTION_DAYS, then start-up fails naming it', async () => {
    const server = spawnServer({ ...llmEnv, THREAD_RETENTION_UNSENT_DAYS: '60' });

    const { code } = await server.exited;

    expect(code).toBe(1);
    expect(server.stderr()).toContain('THREAD_RETENTION_UNSENT_DAYS');
  });

  test.each([
    ['IMAP_URL', { IMAP_URL: 'https://mail.example.com/INBOX' }],
    ['IMAP_URL', { IMAP_URL: 'imaps://support:50%off@mail.example.com/INBOX' }],
    ['IMAP_POLL_MS', { IMAP_URL: 'imap://u:p@127.0.0.1:1/INBOX', IMAP_POLL_MS: '600000' }],
  ])('when %s is out of bounds, then start-up fails naming it', async (name, settings) => {
    const server = spawnServer({ ...llmEnv, ...settings });

    const { code } = await server.exited;

    expect(code).toBe(1);
    expect(server.stderr()).toContain(name);
  });
});
