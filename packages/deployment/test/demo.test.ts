import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startEmulator } from '@repo/llm-emulator';
import { HELPDESK_MESSAGES, SAMPLE_EDITED_DRAFT } from '../src/try-it.js';
import type pg from 'pg';
import {
  connectOrSkip,
  dropTestSchema,
  freshSchemaName,
  TEST_DATABASE_URL,
} from './support/postgres.js';
import {
  descendantsOf,
  freePort,
  isAlive,
  minimalEnv,
  waitFor,
  WatchedProcess,
} from './support/processes.js';
import { pnpmCommand, repoRoot } from './support/repo.js';

const run = promisify(execFile);
/** Where the demos of this file have their mail catcher write. */
const mailDir = mkdtempSync(join(tmpdir(), 'demo-mail-'));
const demoScript = join(repoRoot, 'packages/deployment/dist/demo.js');
const READY = /Press Ctrl-C to stop everything\./;

async function demoPorts() {
  return {
    DEMO_EMULATOR_PORT: await freePort(),
    DEMO_EMAIL_PORT: await freePort(),
    DEMO_HELPDESK_PORT: await freePort(),
    DEMO_SMTP_PORT: await freePort(),
  };
}

/** The demo as a developer starts it, on free ports, in memory mode and without a token (whatever this shell has). */
function startDemo(
  ports: Record<string, number>,
  options: { args?: string[]; env?: Record<string, string> } = {},
): WatchedProcess {
  return new WatchedProcess(process.execPath, [demoScript, ...(options.args ?? [])], {
    cwd: repoRoot,
    env: minimalEnv({
      ...Object.fromEntries(Object.entries(ports).map(([name, port]) => [name, String(port)])),
      // Real keys in the developer's shell must not matter in emulator mode; this one would fail loudly if used.
      LLM_A_API_KEY: 'sk-real-key-that-must-not-be-used',
      DEMO_MAIL_DIR: mailDir,
      ...options.env,
    }),
  });
}

/** The lines of the banner a person pastes into a shell: the THREAD= line and the curl lines, in order. */
function printedCommands(output: string): string[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('THREAD=') || line.startsWith('curl '));
}

/** Runs the printed lines, exactly as printed, in one bash (the first one sets $THREAD for the others). */
async function runAsPasted(commands: string[]): Promise<string[]> {
  const marker = '@@@ next command @@@';
  const script = commands.map((command) => `echo '${marker}'\n${command}`).join('\n');
  const { stdout } = await run('bash', ['-c', script], {
    timeout: 60_000,
    maxBuffer: 4 * 1024 * 1024,
  });
  return stdout
    .split(`${marker}\n`)
    .slice(1)
    .map((output) => output.trim());
}

async function expectAllGone(pids: number[]): Promise<void> {
  await waitFor(
    'every child process to be gone',
    () => (pids.every((pid) => !isAlive(pid)) ? true : undefined),
    5_000,
  );
}

async function expectPortFree(port: number): Promise<void> {
  const server: Server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

describe('pnpm demo (the built runner)', () => {
  let demo: WatchedProcess | undefined;
  let pool: pg.Pool | undefined;
  const schema = freshSchemaName('demo_email_review');

  beforeAll(async () => {
    pool = await connectOrSkip('the demo test with DATABASE_URL');
    await pool?.query(`CREATE SCHEMA ${schema}`);
  });

  afterAll(async () => {
    if (pool) await dropTestSchema(pool, schema);
    await pool?.end();
  });

  afterEach(async () => {
    // Only if a test failed half-way: a passing test has stopped the demo itself.
    if (demo) {
      const children = descendantsOf(demo.child.pid!);
      await demo.stop();
      children.forEach((pid) => isAlive(pid) && process.kill(pid, 'SIGKILL'));
      demo = undefined;
    }
  });

  test('when the printed curl commands are pasted (PostgreSQL on a fresh schema when available), then the thread ends sent, a second one waits in the inbox, the chat reaches billing, technical and escalation, is read back and answers over A2A, at most 60 readable log lines follow Ready with no WARN, ERROR or stack, and Ctrl-C leaves no process', async () => {
    const ports = await demoPorts();
    // With PostgreSQL when there is one (as a developer with DATABASE_URL exported); another test covers memory.
    const database = pool
      ? { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema }
      : undefined;
    demo = startDemo(ports, { env: database });
    await demo.waitForOutput(READY, 90_000);
    const storage = database ? 'postgres' : 'memory';
    expect(demo.stdout).toContain(`email-review storage: ${storage}`);
    // email-review answers /readyz a moment before it logs its listening line (queue and workers start after).
    await demo.waitForOutput(
      new RegExp(`^email-review +\\| .*checkpointer=${storage}`, 'm'),
      30_000,
    );
    const inbox = `http://127.0.0.1:${ports.DEMO_EMAIL_PORT}/`;
    expect(demo.stdout).toContain(`Review inbox: open ${inbox} in a browser`);
    expect((await fetch(inbox)).headers.get('content-type')).toMatch(/^text\/html/);
    const chat = `http://127.0.0.1:${ports.DEMO_HELPDESK_PORT}/`;
    expect(demo.stdout).toContain(`Customer chat: open ${chat} in a browser`);
    expect((await fetch(chat)).headers.get('content-type')).toMatch(/^text\/html/);

    const commands = printedCommands(demo.stdout);
    expect(commands).toHaveLength(13);
    expect(demo.stdout).toContain(
      `Delivered mail: approved replies are written as .eml files to ${mailDir}`,
    );
    const [
      created,
      read,
      editedByText,
      editedByInstructions,
      approved,
      delivered,
      waiting,
      listed,
      billing,
      technical,
      escalation,
      session,
      a2a,
    ] = await runAsPasted(commands);

    const threadId = /^THREAD=([0-9a-f-]{36})$/.exec(created ?? '')?.[1];
    expect(threadId).toBeDefined();
    expect(JSON.parse(read!)).toMatchObject({
      thread_id: threadId,
      status: 'awaiting_review',
      revision: 1,
    });
    expect(JSON.parse(editedByText!)).toMatchObject({
      status: 'awaiting_review',
      revision: 2,
      draft: SAMPLE_EDITED_DRAFT,
    });
    expect(JSON.parse(editedByInstructions!)).toMatchObject({
      status: 'awaiting_review',
      revision: 3,
    });
    expect(JSON.parse(approved!)).toMatchObject({
      thread_id: threadId,
      status: 'sent',
      sent_at: expect.any(String),
      delivery: { status: 'queued' },
    });
    // The last email step shows the reply as the mail catcher received it over SMTP.
    expect(delivered).toContain(`Message-ID: <reply-${threadId}@demo.test>`);
    expect(delivered).toMatch(/^To: Dana Example <dana@example\.com>\r?$/m);
    expect(delivered).toMatch(/^Subject: Re: Charged twice for INV-1001\r?$/m);
    // The flow leaves the second email waiting, so the inbox the banner points to is not empty.
    const waitingId = (JSON.parse(waiting!) as { thread_id: string }).thread_id;
    expect(JSON.parse(waiting!)).toMatchObject({ status: 'awaiting_review' });
    expect(JSON.stringify(JSON.parse(listed!))).toContain(waitingId);

    expect(JSON.parse(billing!)).toMatchObject({ agent: 'billing' });
    expect(JSON.parse(technical!)).toMatchObject({ agent: 'technical' });
    const ticket = JSON.parse(escalation!) as { agent: string; ticket_id?: string; reply: string };
    expect(ticket.agent).toBe('escalation');
    expect(ticket.ticket_id).toMatch(/^TCK-/);
    expect(ticket.reply).toContain(ticket.ticket_id);
    const turns = (JSON.parse(session!) as { turns: Array<{ role: string; agent?: string }> })
      .turns;
    expect(turns.filter((turn) => turn.role !== 'user').map((turn) => turn.agent)).toEqual([
      'billing',
      'technical',
      'escalation',
    ]);
    expect(JSON.parse(a2a!)).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      result: { kind: 'task', status: { state: 'completed' } },
    });

    // After the printed flow, the inbox still has a thread waiting (what the browser shows).
    const inboxList = await fetch(
      `http://127.0.0.1:${ports.DEMO_EMAIL_PORT}/threads?status=awaiting_review`,
    );
    expect(JSON.stringify(await inboxList.json())).toContain(waitingId);

    // A quiet, readable log: the flow's last request logged, then count what the services and the runner said.
    await demo.waitForOutput(/^helpdesk +\| .* POST \/a2a 200 /m, 10_000);
    const afterReady = demo.stdout.slice(demo.stdout.indexOf('\nReady.\n'));
    const logLines = afterReady
      .split('\n')
      .filter((line) => /^(llm-emulator|email-review|helpdesk|demo) +\| /.test(line));
    expect(logLines.length).toBeGreaterThan(10);
    expect(logLines.length).toBeLessThanOrEqual(60);
    expect(demo.output).not.toMatch(/^\S+ +\| \S+ (WARN|ERROR|FATAL) /m);
    expect(demo.output).not.toMatch(/^\S+ +\| +at |"stack"/m);
    expect(demo.output).not.toMatch(/^(email-review|helpdesk) +\| \{/m);

    const children = descendantsOf(demo.child.pid!);
    expect(children).toHaveLength(3);
    demo.child.kill('SIGINT');
    const exit = await demo.exited;
    expect(exit.code).toBe(0);
    await expectAllGone(children);
    for (const port of Object.values(ports)) await expectPortFree(port);
    demo = undefined;
  }, 150_000);

  test('when a port is held by another process, then the demo names the variable that moves it and exits 1 before starting anything', async () => {
    const ports = await demoPorts();
    const squatter = createServer();
    await new Promise<void>((resolve) =>
      squatter.listen(ports.DEMO_EMAIL_PORT, '127.0.0.1', resolve),
    );
    try {
      demo = startDemo(ports);
      const exit = await demo.exited;
      expect(exit.code).toBe(1);
      expect(demo.stderr).toContain(
        `port ${ports.DEMO_EMAIL_PORT} for email-review is in use by another process: stop that process or set DEMO_EMAIL_PORT to a free port`,
      );
      expect(demo.output).not.toMatch(/EADDRINUSE|^\s+at /m);
      expect(demo.stdout).not.toMatch(/Ready\./);
      expect(demo.output).not.toMatch(/^(llm-emulator|email-review|helpdesk) +\|/m);
      demo = undefined;
    } finally {
      await new Promise<void>((resolve) => squatter.close(() => resolve()));
    }
  });

  test('when two services are given the same port, then the demo names both variables and exits 1', async () => {
    const ports = await demoPorts();
    demo = startDemo({ ...ports, DEMO_HELPDESK_PORT: ports.DEMO_EMAIL_PORT });
    const exit = await demo.exited;
    expect(exit.code).toBe(1);
    expect(demo.stderr).toContain(
      `DEMO_EMAIL_PORT and DEMO_HELPDESK_PORT are both ${ports.DEMO_EMAIL_PORT}`,
    );
    demo = undefined;
  });

  test('when a service cannot start (its database is unreachable), then the demo says which, stops the others and exits 1', async () => {
    const ports = await demoPorts();
    // Nothing listens there: email-review ends its start-up with exit 1.
    const closedPort = await freePort();
    demo = startDemo(ports, {
      env: { DATABASE_URL: `postgres://postgres@127.0.0.1:${closedPort}/nowhere` },
    });
    await demo.waitForOutput(/email-review exited unexpectedly/, 60_000);
    const children = descendantsOf(demo.child.pid!);
    const exit = await demo.exited;
    expect(exit.code).toBe(1);
    await expectAllGone(children);
    expect(demo.stdout).not.toMatch(READY);
    demo = undefined;
  }, 90_000);

  test('when Ctrl-C is pressed in a terminal, then the demo stops everything and the shell that runs it (as pnpm does) exits 0', async () => {
    const ports = await demoPorts();
    // `script` gives the demo a terminal; its command runs in `sh -c`, as pnpm runs the root `demo` script. A
    // SIGINT from the terminal would make that shell kill itself (status 130) whatever the demo's exit code.
    demo = new WatchedProcess(
      'script',
      ['--quiet', '--return', '--flush', '--command', `true && node ${demoScript}`, '/dev/null'],
      {
        cwd: repoRoot,
        stdin: 'pipe',
        env: minimalEnv({
          SHELL: '/bin/sh',
          ...Object.fromEntries(Object.entries(ports).map(([name, port]) => [name, String(port)])),
        }),
      },
    );
    await demo.waitForOutput(READY, 90_000);
    const children = descendantsOf(demo.child.pid!);
    demo.child.stdin!.write('\u0003');
    const exit = await demo.exited;
    expect(demo.stdout).toContain('all services stopped');
    expect(exit).toEqual({ code: 0, signal: null });
    await expectAllGone(children);
    for (const port of Object.values(ports)) await expectPortFree(port);
    demo = undefined;
  }, 120_000);

  test('when the root demo script runs under pnpm and its process group gets SIGINT (Ctrl-C without a raw terminal), then it stops everything, pnpm exits 0 and prints no error line', async () => {
    const ports = await demoPorts();
    const [command, args] = pnpmCommand(['demo']);
    demo = new WatchedProcess(command, args, {
      cwd: repoRoot,
      detached: true,
      env: minimalEnv({
        ...Object.fromEntries(Object.entries(ports).map(([name, port]) => [name, String(port)])),
        LLM_A_API_KEY: 'sk-real-key-that-must-not-be-used',
        DEMO_MAIL_DIR: mailDir,
      }),
    });
    await demo.waitForOutput(READY, 120_000);
    const children = descendantsOf(demo.child.pid!);
    // What a terminal does on Ctrl-C: SIGINT to every process of the foreground group (pnpm, its script, the demo, the services).
    process.kill(-demo.child.pid!, 'SIGINT');
    const exit = await demo.exited;
    expect(demo.stdout).toContain('all services stopped');
    expect(demo.stdout).not.toContain('stopping now');
    expect(demo.output).not.toMatch(/ELIFECYCLE|Command failed/);
    expect(exit).toEqual({ code: 0, signal: null });
    await expectAllGone(children);
    demo = undefined;
  }, 180_000);

  test('when pnpm start (--real) runs without the keys, then it names the missing key and starts nothing', async () => {
    demo = startDemo(await demoPorts(), { args: ['--real'], env: { LLM_A_API_KEY: '' } });
    const exit = await demo.exited;
    expect(exit.code).toBe(1);
    expect(demo.stderr).toMatch(/needs LLM_A_API_KEY and AGENT_LLM_API_KEY/);
    expect(demo.stdout).not.toMatch(/email-review +\|/);
    demo = undefined;
  });

  test('when pnpm start (--real) runs with keys, then no emulator starts and both services use the providers the environment names', async () => {
    // A stand-in for the real providers at the base URLs a user may export (e.g. a proxy), so no network is needed.
    const provider = await startEmulator({ port: 0 });
    try {
      const ports = await demoPorts();
      demo = startDemo(ports, {
        args: ['--real'],
        env: {
          LLM_A_API_KEY: 'sk-from-shell',
          LLM_A_BASE_URL: `${provider.url}/v1`,
          AGENT_LLM_API_KEY: 'g-from-shell',
          AGENT_LLM_BASE_URL: provider.url,
        },
      });
      await demo.waitForOutput(READY, 60_000);
      expect(demo.stdout).toContain('LLM provider: the real APIs');
      // Its own mode: its own prefix and words, and no mail catcher (SMTP_URL unset: replies only reach the log).
      expect(demo.stdout).toMatch(/^start +\| mail: SMTP_URL is not set/m);
      expect(demo.output).not.toMatch(/^demo +\||the demo stops|mail catcher/m);
      await demo.waitForOutput(/^email-review +\| .*checkpointer=memory/m, 30_000);
      expect(demo.stdout).not.toMatch(/^llm-emulator/m);
      expect(descendantsOf(demo.child.pid!)).toHaveLength(2);

      const response = await fetch(`http://127.0.0.1:${ports.DEMO_HELPDESK_PORT}/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ session_id: 'real-mode', message: HELPDESK_MESSAGES.billing }),
      });
      expect(response.status).toBe(200);
      expect(provider.requests.list().some((request) => request.provider === 'gemini')).toBe(true);

      const children = descendantsOf(demo.child.pid!);
      demo.child.kill('SIGTERM');
      expect((await demo.exited).code).toBe(0);
      await expectAllGone(children);
      demo = undefined;
    } finally {
      await provider.close();
    }
  }, 90_000);
});
