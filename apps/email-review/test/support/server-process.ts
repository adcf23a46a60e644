import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const APP_DIR = fileURLToPath(new URL('../../', import.meta.url));
const SERVER = join(APP_DIR, 'dist', 'server.js');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** These tests run the built server as users do; build it first when src/ is newer than dist/. */
export function ensureServerBuilt(): void {
  let built = 0;
  try {
    built = statSync(SERVER).mtimeMs;
  } catch {
    built = 0;
  }
  if (built >= newestMtime(join(APP_DIR, 'src'))) return;
  execFileSync(join(APP_DIR, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json'], {
    cwd: APP_DIR,
    stdio: 'inherit',
  });
}

export interface ServerProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves when the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `node dist/server.js` with exactly `env` (plus PATH), on 127.0.0.1. */
export function spawnServer(env: Record<string, string>): ServerProcess {
  ensureServerBuilt();
  const child = spawn(process.execPath, [SERVER], {
    cwd: APP_DIR,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    // 'close', not 'exit': the output is read once it ends, and the last lines may come after 'exit'.
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

/**
 * Waits for a start-up log line (`ready on`: serving; `starting on`, the first line: listening,
 * answering /healthz, perhaps still waiting for the database) and returns the URL it names.
 */
export async function waitUntilListening(
  server: ServerProcess,
  timeoutMs = 60_000,
  marker: 'ready on' | 'starting on' = 'ready on',
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const line = server
      .stdout()
      .split('\n')
      .find((l) => l.includes(marker));
    if (line) return (JSON.parse(line) as { url: string }).url;
    if (server.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`server did not start:\n${server.stdout()}\n${server.stderr()}`);
}

export async function startServer(
  env: Record<string, string>,
): Promise<{ process: ServerProcess; url: string }> {
  const server = spawnServer(env);
  try {
    return { process: server, url: await waitUntilListening(server) };
  } catch (error) {
    server.child.kill('SIGKILL');
    throw error;
  }
}
