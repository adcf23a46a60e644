import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { startEmulator, type Emulator } from '@repo/llm-emulator';
import {
  dropSchema,
  freshSchema,
  postgresTestsEnabled,
  TEST_DATABASE_URL,
  until,
} from './support/database.js';
import { startServer, spawnServer, waitUntilListening } from './support/server-process.js';

const withPostgres = await postgresTestsEnabled();

/** A port on 127.0.0.1 that nothing listens on (it was free a moment ago). */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('start-up', () => {
  const schema = freshSchema('startup');
  let emulator: Emulator;
  let llmEnv: Record<string, string>;

  beforeAll(async () => {
    emulator = await startEmulator();
    llmEnv = { LLM_A_API_KEY: 'test-key', LLM_A_BASE_URL: `${emulator.url}/v1` };
  });
  afterAll(async () => {
    await emulator?.close();
    if (withPostgres) await dropSchema(schema);
  });

  test('when LLM_A_API_KEY is missing, then the service exits 1 with a message naming it', async () => {
    const server = spawnServer({ LLM_A_BASE_URL: `${emulator.url}/v1` });

    const { code } = await server.exited;

    expect(code).toBe(1);
    expect(server.stderr()).toContain('LLM_A_API_KEY');
    expect(server.stdout()).not.toMatch(/starting|ready/);
  });

  test('when DATABASE_URL is not set, then the first line says starting and the ready line, later, checkpointer=memory and that threads are lost on restart', async () => {
    const { process: server, url } = await startServer(llmEnv);

    const lines = server.stdout().split('\n');
    expect(JSON.parse(lines[0]!)).toMatchObject({ msg: `email-review starting on ${url}` });
    const line = lines.find((l) => l.includes('ready on'))!;
    expect(line).toContain('checkpointer=memory');
    expect(line).toMatch(/lost on restart/);
    expect(line).toContain('delivery=log');
    expect(line).toContain('mailbox=off');
    expect((await fetch(`${url}/readyz`)).status).toBe(200);

    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });

  (withPostgres ? test : test.skip)(
    'when DATABASE_URL is set, then the start-up line says checkpointer=postgres and SIGTERM closes cleanly',
    async () => {
      const { process: server, url } = await startServer({
        ...llmEnv,
        DATABASE_URL: TEST_DATABASE_URL,
        DATABASE_SCHEMA: schema,
      });

      expect(server.stdout()).toContain('checkpointer=postgres');
      expect((await fetch(`${url}/readyz`)).status).toBe(200);

      server.child.kill('SIGTERM');
      expect(await server.exited).toEqual({ code: 0, signal: null });
      expect(server.stdout()).toContain('"msg":"stopped"');
    },
  );

  test('when SMTP_URL is set without MAIL_FROM, then start-up refuses with one line naming MAIL_FROM and no secret', async () => {
    const server = spawnServer({
      ...llmEnv,
      SMTP_URL: 'smtp://mailer:hunter2-smtp@127.0.0.1:2525',
    });

    expect((await server.exited).code).toBe(1);
    expect(server.stderr().trim().split('\n')).toHaveLength(1);
    expect(server.stderr()).toContain('MAIL_FROM');
    expect(server.stdout() + server.stderr()).not.toContain('hunter2-smtp');
  });

  test('when SMTP_URL and MAIL_FROM are set, then the start-up line says delivery=smtp and never shows the URL', async () => {
    const { process: server } = await startServer({
      ...llmEnv,
      SMTP_URL: 'smtp://mailer:hunter2-smtp@127.0.0.1:2525',
      MAIL_FROM: 'Support <support@shop.test>',
    });

    expect(server.stdout()).toMatch(/ready on .* delivery=smtp/);
    expect(server.stdout()).not.toContain('hunter2-smtp');
    server.child.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);
  });

  test('when the database is unreachable at start-up, then the first line says starting, not serving, and no ready line comes while /readyz answers 503', async () => {
    const port = await closedPort();
    const server = spawnServer({
      ...llmEnv,
      DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/test`,
    });
    try {
      await until(() => server.stdout().includes('\n'), 'the first log line', 20_000);
      const first = JSON.parse(server.stdout().split('\n')[0]!) as { msg: string; url: string };

      expect(first.msg).toBe(`email-review starting on ${first.url}`);
      expect((await fetch(`${first.url}/readyz`)).status).toBe(503);
      expect(server.stdout()).not.toMatch(/serving|ready on|listening/);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  test('when DATABASE_SCHEMA is not a plain identifier, then start-up fails naming it', async () => {
    const server = spawnServer({
      ...llmEnv,
      DATABASE_URL: TEST_DATABASE_URL,
      DATABASE_SCHEMA: 'x"; drop',
    });

    expect((await server.exited).code).toBe(1);
    expect(server.stderr()).toContain('DATABASE_SCHEMA');
  });

  test('when the database stays unreachable past DATABASE_STARTUP_TIMEOUT_MS, then the service answers healthz 200 and readyz 503 meanwhile, logs one line naming it, without its password, and exits 1', async () => {
    const port = await closedPort();
    const server = spawnServer({
      ...llmEnv,
      DATABASE_URL: `postgres://postgres:hunter2-secret@127.0.0.1:${port}/test`,
      DATABASE_STARTUP_TIMEOUT_MS: '3000',
    });
    const url = await waitUntilListening(server, 20_000, 'starting on');
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(503);
    const create = await fetch(`${url}/threads`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ inbound: 'Hello, my invoice is wrong.' }),
    });
    expect(create.status).toBe(503);
    expect(create.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await create.json()).toMatchObject({ code: 'database_unavailable' });

    const { code } = await server.exited;

    expect(code).toBe(1);
    const lines = server
      .stdout()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { level: number; msg: string });
    const fatal = lines.filter((line) => line.level >= 50);
    expect(fatal).toHaveLength(1);
    expect(fatal[0]!.msg).toContain(`cannot open the database postgres://postgres:`);
    expect(fatal[0]!.msg).toContain(`127.0.0.1:${port}`);
    expect(server.stdout() + server.stderr()).not.toContain('hunter2-secret');
    // One clear line, not an unhandled rejection's stack trace.
    expect(server.stderr()).toBe('');
  });
});
