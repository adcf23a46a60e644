import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import { repoRoot } from '../repo-paths.js';
import { processGroupCpuMs, processGroupRss } from './process-stats.js';

export interface LaunchOptions {
  /** Shown in errors and in the report. */
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  /** The variables worth showing in the report's command line (the ones the bench set). */
  shownEnv?: Record<string, string>;
  cwd?: string;
  /** Polled with GET until it answers 2xx (and `isReady` accepts the body, if given). */
  readyUrl: string;
  isReady?: (body: string) => boolean;
  readyTimeoutMs?: number;
  /** The signal that asks this process to shut down cleanly (default SIGTERM). */
  stopSignal?: NodeJS.Signals;
}

export interface ServiceProcess {
  name: string;
  pid: number;
  /** The command line as a user would type it (for the report). */
  commandLine: string;
  /** Resident memory of the whole process group. */
  rss(): number;
  /** CPU time (ms) the whole process group used so far. */
  cpuMs(): number;
  /** The last lines the process wrote, for error messages. */
  outputTail(): string;
  /** SIGTERM to the group, then SIGKILL after `graceMs`; resolves once the leader exited. */
  stop(graceMs?: number): Promise<void>;
}

const TAIL_LINES = 60;

/**
 * Starts a system under test in its own process group (so that stopping it also stops the servers
 * its CLI spawned) and waits until it answers.
 */
export async function launchService(options: LaunchOptions): Promise<ServiceProcess> {
  const child = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const tail: string[] = [];
  const keep = (chunk: Buffer) => {
    tail.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    if (tail.length > TAIL_LINES) tail.splice(0, tail.length - TAIL_LINES);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  let hasExited = false;
  void exited.then(() => (hasExited = true));
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${options.name}: could not start ${options.command}`);

  const service: ServiceProcess = {
    name: options.name,
    pid,
    commandLine: commandLine(options),
    rss: () => processGroupRss(pid),
    cpuMs: () => processGroupCpuMs(pid),
    outputTail: () => tail.join('\n'),
    stop: (graceMs = 10_000) =>
      stopGroup(child, exited, () => hasExited, {
        stopSignal: options.stopSignal ?? 'SIGTERM',
        graceMs,
      }),
  };

  try {
    await waitUntilReady(options, () => hasExited);
  } catch (err) {
    await service.stop(2_000);
    throw new Error(
      `${(err as Error).message}\n--- ${options.name} output ---\n${service.outputTail()}`,
    );
  }
  return service;
}

/** `VAR=value … command args`, with paths inside the repo shown relative to its root. */
function commandLine(options: LaunchOptions): string {
  const env = Object.entries(options.shownEnv ?? {}).map(
    ([k, v]) => `${k}=${v.replace(/:\/\/([^:@/]+):[^@]*@/, '://$1:***@')}`,
  );
  const command = options.command === process.execPath ? 'node' : options.command;
  return [...env, command, ...options.args]
    .map((part) => part.replaceAll(`${repoRoot}/`, ''))
    .join(' ');
}

async function waitUntilReady(options: LaunchOptions, hasExited: () => boolean): Promise<void> {
  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
  while (Date.now() < deadline) {
    if (hasExited()) throw new Error(`${options.name} exited before it was ready`);
    try {
      const res = await fetch(options.readyUrl, { signal: AbortSignal.timeout(2_000) });
      const body = await res.text();
      if (res.ok && (options.isReady?.(body) ?? true)) return;
    } catch {
      // not listening yet
    }
    await delay(100);
  }
  throw new Error(
    `${options.name} was not ready at ${options.readyUrl} within ${options.readyTimeoutMs ?? 60_000} ms`,
  );
}

async function stopGroup(
  child: ChildProcess,
  exited: Promise<number | null>,
  hasExited: () => boolean,
  { stopSignal, graceMs }: { stopSignal: NodeJS.Signals; graceMs: number },
): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-pid, signal);
    } catch {
      // the group is already gone
    }
  };
  if (!hasExited()) {
    signalGroup(stopSignal);
    const timer = setTimeout(() => signalGroup('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  }
  // Children of the leader that outlived it (a CLI's server) must not linger either.
  signalGroup('SIGKILL');
  child.stdout?.destroy();
  child.stderr?.destroy();
}
