import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';

/** A port nobody listens on right now (the OS picks it; the tiny race until it is used is acceptable in tests). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== 'object' || !address) throw new Error('no port');
  return address.port;
}

/** Polls `check` until it returns a value other than undefined, or fails after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | Promise<T | undefined>,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await delay(100);
  }
}

interface ProcStat {
  pid: number;
  ppid: number;
  state: string;
}

function readStat(pid: number): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces and parentheses: the fields after it follow the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { pid, state: fields[0] ?? '?', ppid: Number(fields[1]) };
  } catch {
    return undefined;
  }
}

/** Every process below `pid` (children, grandchildren, …), read from /proc. */
export function descendantsOf(pid: number): number[] {
  const stats = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readStat(Number(name)))
    .filter((stat): stat is ProcStat => stat !== undefined);
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const stat of stats) {
      if (stat.ppid === parent) {
        found.push(stat.pid);
        queue.push(stat.pid);
      }
    }
  }
  return found;
}

/** A zombie has exited already; it only waits for its parent to collect its status. */
export function isAlive(pid: number): boolean {
  const stat = readStat(pid);
  return stat !== undefined && stat.state !== 'Z';
}

/** A child process whose output is collected, with a way to wait for a line of it. */
export class WatchedProcess {
  readonly child: ChildProcess;
  stdout = '';
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(
    command: string,
    args: string[],
    options: {
      cwd: string;
      env: Record<string, string | undefined>;
      stdin?: 'ignore' | 'pipe';
      /** In a process group of its own, as a terminal's foreground job is (`process.kill(-pid)` reaches it all). */
      detached?: boolean;
    },
  ) {
    this.child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      detached: options.detached ?? false,
      stdio: [options.stdin ?? 'ignore', 'pipe', 'pipe'],
    });
    this.child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (this.stdout += chunk));
    this.child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk));
    this.exited = new Promise((resolve) => {
      this.child.once('close', (code, signal) => resolve({ code, signal }));
      // A command that cannot start (`spawn pnpm ENOENT`) ends the wait at once, saying why.
      this.child.once('error', (error) => {
        this.stderr += `${error.message}\n`;
        resolve({ code: null, signal: null });
      });
    });
  }

  get output(): string {
    return `${this.stdout}\n${this.stderr}`;
  }

  async waitForOutput(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
    let exited = false;
    void this.exited.then(() => (exited = true));
    return waitFor(
      `${pattern} in the output`,
      () => {
        const match = this.stdout.match(pattern) ?? this.stderr.match(pattern);
        if (match) return match;
        if (exited) throw new Error(`process exited before printing ${pattern}:\n${this.output}`);
        return undefined;
      },
      timeoutMs,
    );
  }

  /** SIGTERM, then SIGKILL if it is still there after `graceMs`; resolves once it has exited. */
  async stop(graceMs = 10_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill('SIGTERM');
      const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
      const exit = await this.exited;
      clearTimeout(timer);
      return exit;
    }
    return this.exited;
  }
}

export async function waitForHealthy(
  url: string,
  process: WatchedProcess,
  timeoutMs = 30_000,
): Promise<void> {
  let exited = false;
  void process.exited.then(() => (exited = true));
  await waitFor(
    `${url} to answer`,
    async () => {
      if (exited) throw new Error(`process exited before ${url} answered:\n${process.output}`);
      try {
        const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
        return response.ok ? true : undefined;
      } catch {
        return undefined;
      }
    },
    timeoutMs,
  );
}

/** The environment a child gets: PATH only, plus what the test names (no NODE_OPTIONS from jest, no secrets). */
export function minimalEnv(
  extra: Record<string, string | undefined>,
): Record<string, string | undefined> {
  return { PATH: process.env.PATH, HOME: process.env.HOME, ...extra };
}
