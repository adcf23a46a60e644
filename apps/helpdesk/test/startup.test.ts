import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { startEmulator, type Emulator } from '@repo/llm-emulator';
import { INVOICE_QUESTION, waitFor } from './support/harness.js';

const appDir = resolve(process.cwd());
const serverJs = resolve(appDir, 'dist/server.js');

/** Only what the server needs: nothing leaks in from the test's own environment. */
const baseEnv = { PATH: process.env['PATH'] ?? '', NODE_ENV: 'test', HOST: '127.0.0.1', PORT: '0' };

function runServer(env: Record<string, string>) {
  const child = spawn(process.execPath, [serverJs], {
    env: { ...baseEnv, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (output.stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
  // 'close', not 'exit': the output is asserted once it ends, and the last lines may come after 'exit'.
  const exited = once(child, 'close').then(([code]) => code as number | null);
  return { child, output, exited };
}

/**
 * A pass-through to the emulator that notes the API key of every model call: the emulator accepts
 * any key and does not record which one it saw.
 */
async function startKeyRecorder(target: string) {
  const keys: string[] = [];
  const server: Server = createServer((req, res) => {
    keys.push(String(req.headers['x-goog-api-key'] ?? ''));
    const upstream = httpRequest(
      new URL(req.url ?? '/', target),
      { method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    keys,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}

/** A port nothing listens on: taken from the system, then let go. */
async function closedPort(): Promise<number> {
  const server = createTcpServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
}

/**
 * Waits for a start-up line (`ready on`: serving; `starting on`, the first line: listening, perhaps
 * still waiting for the database) and returns the URL it names.
 */
async function waitUntilListening(
  output: { stdout: string },
  marker: 'helpdesk ready on' | 'helpdesk starting on' = 'helpdesk ready on',
): Promise<string> {
  await waitFor(() => output.stdout.includes(marker), 20_000, `the line "${marker}"`);
  const started = output.stdout.split('\n').find((line) => line.includes(marker))!;
  return (JSON.parse(started) as { url: string }).url;
}

describe('start-up', () => {
  let emulator: Emulator;

  beforeAll(async () => {
    // The server runs as users run it: the compiled dist/server.js, built from the current sources.
    await promisify(execFile)(resolve(appDir, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], {
      cwd: appDir,
    });
    emulator = await startEmulator({ port: 0 });
  }, 120_000);
  afterAll(() => emulator?.close());

  it('when AGENT_LLM_API_KEY is missing, then the server exits 1 with one line naming it', async () => {
    const { output, exited } = runServer({ AGENT_LLM_BASE_URL: emulator.url });

    expect(await exited).toBe(1);
    expect(output.stderr.trim().split('\n')).toHaveLength(1);
    expect(output.stderr).toMatch(/AGENT_LLM_API_KEY is required/);
    expect(output.stdout).not.toMatch(/starting|ready/);
  });

  it('when a setting is invalid, then the server exits 1 naming it', async () => {
    const { output, exited } = runServer({ AGENT_LLM_API_KEY: 'k', MAX_SESSIONS: 'lots' });

    expect(await exited).toBe(1);
    expect(output.stderr).toMatch(/MAX_SESSIONS/);
  });

  it('when configured, then it serves chat, keeps user text out of its info logs, and exits 0 on SIGTERM', async () => {
    const { child, output, exited } = runServer({
      AGENT_LLM_API_KEY: 'secret-key-value',
      AGENT_LLM_BASE_URL: emulator.url,
      LOG_LEVEL: 'info',
    });
    try {
      const url = await waitUntilListening(output);

      const res = await fetch(`${url}/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ session_id: 'from-dist', message: INVOICE_QUESTION }),
      });

      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ agent: 'billing' });
      expect(output.stdout).not.toContain(INVOICE_QUESTION);
      expect(output.stdout).not.toContain('secret-key-value');
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 30_000);

  it('when AGENT_LLM_PROVIDER is openai, then the agents answer through the OpenAI-compatible endpoint with its key', async () => {
    const { child, output } = runServer({
      AGENT_LLM_PROVIDER: 'openai',
      AGENT_LLM_API_KEY: 'openai-key',
      AGENT_LLM_BASE_URL: `${emulator.url}/v1`,
      AGENT_LLM_MODEL: 'llama3.1:8b',
    });
    try {
      const url = await waitUntilListening(output);
      emulator.requests.clear();

      const res = await fetch(`${url}/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ session_id: 'openai-dist', message: INVOICE_QUESTION }),
      });

      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ agent: 'billing' });
      const calls = emulator.requests.list();
      expect(calls.map((c) => [c.provider, c.path, c.model])).toEqual(
        Array(3).fill(['openai', '/v1/chat/completions', 'llama3.1:8b']),
      );
    } finally {
      child.kill('SIGTERM');
    }
  }, 30_000);

  it("when Google's own key variables are set too, then the model is called with AGENT_LLM_API_KEY", async () => {
    const recorder = await startKeyRecorder(emulator.url);
    const { child, output, exited } = runServer({
      AGENT_LLM_API_KEY: 'agent-llm-key',
      GEMINI_API_KEY: 'gemini-env-key',
      GOOGLE_API_KEY: 'google-env-key',
      GOOGLE_GENAI_API_KEY: 'genai-env-key',
      AGENT_LLM_BASE_URL: recorder.url,
    });
    try {
      const url = await waitUntilListening(output);

      const res = await fetch(`${url}/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ session_id: 'which-key', message: INVOICE_QUESTION }),
      });

      expect(res.status).toBe(200);
      expect(recorder.keys).toHaveLength(3);
      expect(new Set(recorder.keys)).toEqual(new Set(['agent-llm-key']));
    } finally {
      child.kill('SIGTERM');
      await exited;
      await recorder.close();
    }
  }, 30_000);

  it('when the database is unreachable at start-up, then the first line says starting, not listening or serving, and no ready line comes while /readyz answers 503', async () => {
    const port = await closedPort();
    const { child, output, exited } = runServer({
      AGENT_LLM_API_KEY: 'k',
      AGENT_LLM_BASE_URL: emulator.url,
      DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/test`,
    });
    try {
      await waitFor(() => output.stdout.includes('\n'), 20_000, 'the first log line');
      const first = JSON.parse(output.stdout.split('\n')[0]!) as { msg: string; url: string };

      expect(first.msg).toBe(`helpdesk starting on ${first.url}`);
      expect((await fetch(`${first.url}/readyz`)).status).toBe(503);
      expect(output.stdout).not.toMatch(/serving|ready on|listening/);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  }, 30_000);

  it('when the database stays unreachable past DATABASE_STARTUP_TIMEOUT_MS, then the service answers healthz 200 and readyz 503 meanwhile, then logs one line naming it, without its password, and exits 1', async () => {
    const port = await closedPort();
    const { output, exited } = runServer({
      AGENT_LLM_API_KEY: 'k',
      AGENT_LLM_BASE_URL: emulator.url,
      DATABASE_URL: `postgres://postgres:hunter2-secret@127.0.0.1:${port}/test`,
      DATABASE_STARTUP_TIMEOUT_MS: '3000',
    });
    const url = await waitUntilListening(output, 'helpdesk starting on');
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect((await fetch(`${url}/readyz`)).status).toBe(503);

    expect(await exited).toBe(1);

    const lines = output.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { level: number; msg: string });
    const fatal = lines.filter((line) => line.level >= 50);
    expect(fatal).toHaveLength(1);
    expect(fatal[0]!.msg).toContain('cannot open the database postgres://postgres:');
    expect(fatal[0]!.msg).toContain(`127.0.0.1:${port}`);
    expect(output.stdout + output.stderr).not.toContain('hunter2-secret');
    // One clear line, not an unhandled rejection's stack trace.
    expect(output.stderr).toBe('');
  }, 30_000);
});
