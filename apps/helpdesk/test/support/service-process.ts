import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { derivedSchemas, recordSchema } from '@repo/jest-preset/schema-ledger.mjs';
import pg from 'pg';
import { waitFor } from './harness.js';

const appDir = resolve(process.cwd());
const serverJs = resolve(appDir, 'dist/server.js');

/** The shared test database; each test file works in a schema of its own. */
export const TEST_DATABASE_URL =
  process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Compiles dist/ from the current sources: the processes run what users run. */
export async function buildService(): Promise<void> {
  await promisify(execFile)(resolve(appDir, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], {
    cwd: appDir,
  });
}

/** A fresh schema name for one test file; `dropSchema` removes it afterwards. */
export function testSchema(prefix: string): string {
  const schema = `${prefix}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  recordSchema(schema);
  return schema;
}

export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    // With webhooks on, pg-boss keeps its jobs in `<schema>_pgboss` beside the sessions.
    for (const name of derivedSchemas(schema)) {
      await client.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
    }
  } finally {
    await client.end();
  }
}

export interface ServiceProcess {
  child: ChildProcess;
  /** The base URL, once listening. */
  url: string;
  output: { stdout: string; stderr: string };
  post(path: string, body: unknown): Promise<Response>;
  chat(sessionId: string, message: string): Promise<Response>;
  get(path: string): Promise<Response>;
  /** SIGKILL: the process dies at once, mid-request or not. */
  kill(): Promise<void>;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
}

/** dist/server.js as a child process with only the given environment; resolves once it listens. */
export async function startService(env: Record<string, string>): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [serverJs], {
    env: {
      PATH: process.env['PATH'] ?? '',
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: '0',
      AGENT_LLM_API_KEY: 'test-key',
      AGENT_LLM_MAX_RETRIES: '0',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  child.stdout!.on('data', (chunk: Buffer) => (output.stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
  const exited = once(child, 'close');
  // The first start-up line ("starting on", at info) names the URL as soon as the server listens,
  // before it is ready (tests of a database away need it then). A server that never listens is
  // killed, not left running after the suite.
  await waitFor(
    () => /helpdesk starting on/.test(output.stdout),
    // Generous: on a loaded machine the import of ADK alone has taken over 20 s.
    60_000,
    'the server to listen',
  ).catch(async (error: unknown) => {
    child.kill('SIGKILL');
    await exited;
    throw error;
  });
  const line = output.stdout.split('\n').find((l) => l.includes('helpdesk starting on'))!;
  const url = (JSON.parse(line) as { url: string }).url;
  const post = (path: string, body: unknown) =>
    fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  return {
    child,
    url,
    output,
    post,
    chat: (sessionId, message) => post('/chat', { session_id: sessionId, message }),
    get: (path) => fetch(`${url}${path}`),
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Polls `GET /readyz` until it answers 200. */
export async function waitUntilReady(service: ServiceProcess, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await service.get('/readyz').catch(() => undefined);
    if (res?.status === 200) return;
    if (Date.now() > deadline) throw new Error('timed out waiting for /readyz 200');
    await new Promise((done) => setTimeout(done, 50));
  }
}
