import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';

/** A service started as a child process (as deployed: `node dist/server.js`). */
export interface ChildService {
  name: string;
  url: string;
  outputTail(): string;
  stop(): Promise<void>;
}

/** The environment a service starts with: ours minus what would change it behind our back, plus `extra`. */
const DROPPED =
  /^(NODE_OPTIONS|DATABASE_URL|DATABASE_SCHEMA|PORT|HOST|LOG_LEVEL|API_TOKENS?|JEST_WORKER_ID|EVAL_.*|LLM_A_.*|AGENT_LLM_.*|AGENT_APP_NAME|KB_DIR|KB_SCHEMA|PROMPTS_DIR|SUPPORT_PROFILE_FILE|PROFILE_.*|WEBHOOK_.*|OPERATORS|OPENAI_.*|GEMINI_.*|GOOGLE_.*)$/;

export function serviceEnv(extra: Record<string, string | undefined>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !DROPPED.test(key)) env[key] = value;
  }
  for (const [key, value] of Object.entries(extra)) if (value !== undefined) env[key] = value;
  return env;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Starts `node script` with PORT/HOST set and waits until `readyPath` answers 2xx. */
export async function startChildService(options: {
  name: string;
  script: string;
  /** Arguments after the script, given the port chosen for it. */
  args?: (port: number) => string[];
  env: Record<string, string | undefined>;
  readyPath: string;
  readyTimeoutMs?: number;
}): Promise<ChildService> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [options.script, ...(options.args?.(port) ?? [])], {
    env: serviceEnv({ PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...options.env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const tail: string[] = [];
  const keep = (chunk: Buffer) => {
    tail.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    tail.splice(0, Math.max(0, tail.length - 40));
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      resolve();
    }),
  );
  const service: ChildService = {
    name: options.name,
    url,
    outputTail: () => tail.join('\n'),
    stop: async () => {
      if (exited) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exit;
      clearTimeout(killer);
    },
  };
  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
  while (Date.now() < deadline) {
    if (exited)
      throw new Error(`${options.name} exited before it was ready:\n${service.outputTail()}`);
    try {
      const res = await fetch(`${url}${options.readyPath}`, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) return service;
    } catch {
      // not listening yet
    }
    await delay(100);
  }
  await service.stop();
  throw new Error(`${options.name} was not ready within the deadline:\n${service.outputTail()}`);
}
